// EER acquisition XML (docs/formats.md#eer-container and #eer-fractions-and-upsampling): the items
// Thermo Fisher writes, in item and element form, and the dose per raw frame that
// --eer-dose-per-fraction divides by.
#include <gtest/gtest.h>

#include "frost/io/eer_metadata.hpp"

namespace frost::io {
namespace {

// The shape of a Falcon 4 file's tag 65001 (values made up): 1000 frames, 40 e/px in total, a
// specimen pixel of 0.8 Å.
const char* const kItems = R"(<?xml version="1.0" encoding="utf-8"?>
<metadata>
  <item name="acquisitionID">A1</item>
  <item name="cameraName">BM-Falcon</item>
  <item name="exposureTime" unit="s">4.03</item>
  <item name="meanDoseRate" unit="e/pixel/s">9.9256</item>
  <item name="numberOfFrames">1000</item>
  <item name="sensorImageHeight" unit="pixel">4096</item>
  <item name="sensorImageWidth" unit="pixel">4096</item>
  <item name="sensorPixelSize.height" unit="m">8.0e-11</item>
  <item name="sensorPixelSize.width" unit="m">8.0e-11</item>
  <item name="totalDose" unit="e/pixel">40</item>
</metadata>)";

TEST(EerMetadata, ItemEntriesGiveTheDosePerRawFrame) {
  const EerAcquisition a = parse_eer_metadata(kItems);
  ASSERT_TRUE(a.frames && a.total_dose && a.dose_rate && a.exposure_time && a.pixel_height && a.pixel_width);
  EXPECT_EQ(*a.frames, 1000);
  EXPECT_DOUBLE_EQ(*a.total_dose, 40.0);
  EXPECT_DOUBLE_EQ(*a.exposure_time, 4.03);
  EXPECT_DOUBLE_EQ(*a.pixel_height, 8.0e-11);
  // 40 e/px over 1000 frames and 0.64 Å² per pixel.
  ASSERT_TRUE(a.raw_frame_dose(999).has_value());
  EXPECT_NEAR(*a.raw_frame_dose(999), 40.0 / 1000 / 0.64, 1e-12);
  EXPECT_EQ(a.missing_for_dose(), "");
}

TEST(EerMetadata, ElementFormAndNestedPixelSize) {
  const EerAcquisition a = parse_eer_metadata(
      "<metadata><numberOfFrames>500</numberOfFrames><totalDose>25.5</totalDose>"
      "<sensorPixelSize><height>1.0e-10</height><width>1.0e-10</width></sensorPixelSize></metadata>");
  ASSERT_TRUE(a.raw_frame_dose(0).has_value());
  EXPECT_NEAR(*a.raw_frame_dose(0), 25.5 / 500, 1e-12);
}

TEST(EerMetadata, RateTimesExposureWhenTheTotalIsMissingAndFileFramesWhenTheCountIs) {
  const EerAcquisition a = parse_eer_metadata(
      "<metadata><item name=\"meanDoseRate\">10</item><item name=\"exposureTime\">2</item>"
      "<item name=\"sensorPixelSize.width\">1e-10</item></metadata>");
  EXPECT_FALSE(a.frames.has_value());
  ASSERT_TRUE(a.raw_frame_dose(400).has_value());
  EXPECT_NEAR(*a.raw_frame_dose(400), 20.0 / 400, 1e-12); // square pixel from the one size given
}

TEST(EerMetadata, MissingOrImplausibleItemsAreNamed) {
  EXPECT_FALSE(parse_eer_metadata("").raw_frame_dose(10).has_value());
  EXPECT_FALSE(parse_eer_metadata("not xml <<< at all").raw_frame_dose(10).has_value());
  const EerAcquisition no_dose = parse_eer_metadata("<metadata><item name=\"numberOfFrames\">3</item></metadata>");
  EXPECT_FALSE(no_dose.raw_frame_dose(3).has_value());
  EXPECT_NE(no_dose.missing_for_dose().find("totalDose"), std::string::npos) << no_dose.missing_for_dose();
  EXPECT_NE(no_dose.missing_for_dose().find("sensorPixelSize"), std::string::npos) << no_dose.missing_for_dose();
  // A physical sensor pixel (14 µm) is not a specimen pixel size: no dose in e/Å² from it.
  const EerAcquisition sensor = parse_eer_metadata(
      "<metadata><item name=\"totalDose\">40</item><item name=\"sensorPixelSize.height\">1.4e-05</item>"
      "<item name=\"sensorPixelSize.width\">1.4e-05</item></metadata>");
  EXPECT_FALSE(sensor.raw_frame_dose(100).has_value());
  EXPECT_NE(sensor.missing_for_dose().find("specimen pixel size"), std::string::npos);
  // Text that is not a number, and a count that is not a whole positive number, are ignored.
  const EerAcquisition junk = parse_eer_metadata(
      "<metadata><item name=\"totalDose\">forty</item><item name=\"numberOfFrames\">-3</item>"
      "<item name=\"exposureTime\">nan</item></metadata>");
  EXPECT_FALSE(junk.total_dose || junk.frames || junk.exposure_time);
  // Unclosed tags and stray end tags end the scan without harm.
  EXPECT_FALSE(parse_eer_metadata("<metadata><item name=\"totalDose\">4").total_dose.has_value());
  EXPECT_FALSE(parse_eer_metadata("</a></b><c>").total_dose.has_value());
}

} // namespace
} // namespace frost::io
