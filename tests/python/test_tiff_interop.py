#!/usr/bin/env python3
"""Independent check of frost's TIFF movie reading with files other programs wrote.

Usage: test_tiff_interop.py PATH/TO/frost_movie_read_tool

Python `tifffile` writes multi-page TIFF movies (uint8, uint16, int16 and float32; uncompressed and
Deflate), and libtiff's `tiffcp` recompresses the uncompressed ones (LZW, Deflate, PackBits; one row
per strip, libtiff's default strips, one strip per frame). `mrcfile` writes the same frames as MRC.
frost must read every TIFF exactly as the MRC, both as floats (read_frame) and through the stored
form that the GPU path converts (docs/movie_align.md#the-cuda-backend). TIFF row 0 is the top of
the image and frost flips TIFF rows (docs/formats.md#tiff-movies), so the MRC holds the frames with
their rows reversed. Exit status 0 on success; the first failed check raises AssertionError.
"""
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import mrcfile
import numpy as np
import tifffile


def read(tool, path):
    out = subprocess.run([tool, str(path)], check=True, capture_output=True, text=True).stdout
    frames, stored = {}, {}
    for line in out.splitlines():
        key, *rest = line.split()
        if key == "frame":
            frames[int(rest[0])] = np.array(rest[1:], dtype=np.float64)
        elif key == "stored" and rest[0] != "none":
            stored[int(rest[0])] = np.array(rest[1:], dtype=np.float64)
    return frames, stored


def frames_of(kind, rng, n=4, h=29, w=37):
    if kind == "float32":
        return rng.normal(0, 100, (n, h, w)).astype(np.float32)
    info = np.iinfo(kind)
    data = rng.poisson(3.0, (n, h, w)).astype(np.int64)
    data[:, ::7, ::5] = info.max  # the extremes of the type
    if info.min < 0:
        data[:, 3::11, ::3] = info.min
    return data.astype(kind)


def check(tool, tiff, mrc, label, expect_stored=True):
    got, got_stored = read(tool, tiff)
    want, _ = read(tool, mrc)
    assert len(got) == len(want) > 0, (label, len(got), len(want))
    for t in want:
        assert np.array_equal(got[t], want[t]), f"{label}: frame {t} differs from the MRC"
    if expect_stored:
        assert len(got_stored) == len(want), f"{label}: no stored form"
        for t in want:
            assert np.array_equal(got_stored[t], want[t]), f"{label}: stored frame {t} differs from the MRC"
    print(f"ok {label}: {len(got)} frames{' (and stored)' if got_stored else ''}")


def main():
    tool = sys.argv[1]
    tiffcp = shutil.which("tiffcp")
    assert tiffcp, "tiffcp (libtiff-tools) is not on PATH"
    rng = np.random.default_rng(7)
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        for kind in ("uint8", "uint16", "int16", "float32"):
            data = frames_of(kind, rng)
            mrc = d / f"{kind}.mrcs"
            # mrcfile has no unsigned 8-bit mode: the counts go as int16 (the same values).
            stored = data.astype(np.int16) if kind == "uint8" else data
            with mrcfile.new(mrc) as m:
                m.set_data(np.ascontiguousarray(stored[:, ::-1, :]))
            plain = d / f"{kind}.tif"
            tifffile.imwrite(plain, data, photometric="minisblack")
            check(tool, plain, mrc, f"{kind} tifffile uncompressed")
            deflated = d / f"{kind}_tf_zlib.tif"
            tifffile.imwrite(deflated, data, photometric="minisblack", compression="zlib")
            check(tool, deflated, mrc, f"{kind} tifffile deflate")
            if kind == "float32":
                continue
            for codec in ("lzw", "zip", "packbits"):
                for rows in ("1", None, "29"):
                    out = d / f"{kind}_{codec}_{rows}.tif"
                    cmd = [tiffcp, "-c", codec] + (["-r", rows] if rows else []) + [str(plain), str(out)]
                    subprocess.run(cmd, check=True)
                    check(tool, out, mrc, f"{kind} tiffcp -c {codec} -r {rows or 'default'}")
    print("all TIFF interoperability checks passed")


if __name__ == "__main__":
    main()
