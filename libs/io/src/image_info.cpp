#include "frost/io/image_info.hpp"

namespace frost::io {

const char* to_string(FileFormat f) {
  switch (f) {
  case FileFormat::Mrc: return "MRC";
  case FileFormat::Tiff: return "TIFF";
  case FileFormat::EmanHdf: return "EMAN2 HDF";
  case FileFormat::Spider: return "SPIDER";
  }
  return "?";
}

const char* to_string(Content c) {
  switch (c) {
  case Content::Image: return "image";
  case Content::Stack: return "stack";
  case Content::Volume: return "volume";
  case Content::VolumeStack: return "volume stack";
  }
  return "?";
}

const char* to_string(SampleType s) {
  switch (s) {
  case SampleType::UInt4: return "uint4";
  case SampleType::Int8: return "int8";
  case SampleType::UInt8: return "uint8";
  case SampleType::Int16: return "int16";
  case SampleType::UInt16: return "uint16";
  case SampleType::Int32: return "int32";
  case SampleType::UInt32: return "uint32";
  case SampleType::Float16: return "float16";
  case SampleType::Float32: return "float32";
  }
  return "?";
}

} // namespace frost::io
