#!/usr/bin/env python3
"""Independent check of frost's EER writer and reader with another decoder.

Usage: test_eer_interop.py PATH/TO/frost_simulate PATH/TO/frost_movie_read_tool

frost_simulate writes a count movie as MRC (.mrcs) and as EER (--eer_group G: each frame split
into G raw frames, docs/simulate.md#eer-movies). Python `tifffile` finds the raw frames' strips and
`imagecodecs.eer_decode` (Christoph Gohlke's decoder, written from Thermo Fisher's format
description) decodes them at its super-resolution levels 0, 1 and 2. Checked exactly:
  - imagecodecs' fractions (sums of G raw frames), binned back to the sensor grid, are the MRC counts
    (mrcfile): the writer codes what it was given, readable by another decoder;
  - frost's reader at --eer-upsampling 1, 2, 4 gives imagecodecs' fractions at levels 0, 1, 2
    (electron positions and sub-pixel symbols read the same way), both as read_frame() and as the
    stored form the GPU path converts.
EER rows are not flipped (docs/formats.md#eer-container). Exit status 0 on success.
"""
import subprocess
import sys
import tempfile
from pathlib import Path

import imagecodecs
import mrcfile
import numpy as np
import tifffile

UPSAMPLING = {1: 0, 2: 1, 4: 2}  # frost --eer-upsampling -> imagecodecs superres level


def frost_read(tool, path, upsampling, group):
    out = subprocess.run([tool, str(path), "--eer-upsampling", str(upsampling), "--eer-group", str(group)],
                         check=True, capture_output=True, text=True).stdout
    frames, stored, size = {}, {}, None
    for line in out.splitlines():
        key, *rest = line.split()
        if key == "size":
            size = (int(rest[1]), int(rest[0]))  # rows, columns
        elif key == "frame":
            frames[int(rest[0])] = np.array(rest[1:], dtype=np.float64)
        elif key == "stored" and rest[0] != "none":
            stored[int(rest[0])] = np.array(rest[1:], dtype=np.float64)
    return size, frames, stored


def imagecodecs_fractions(path, group, level):
    with tifffile.TiffFile(path) as tif, open(path, "rb") as fh:
        pages = list(tif.pages)
        height, width = pages[0].shape[-2:]
        if level:
            height, width = height << level, width << level
        raw = []
        for page in pages:
            assert page.compression == 65001, page.compression
            fh.seek(page.dataoffsets[0])
            data = fh.read(page.databytecounts[0])
            raw.append(imagecodecs.eer_decode(data, (height, width), 7, 2, 2, superres=level).astype(np.float64))
    raw = np.stack(raw)
    assert len(raw) % group == 0
    return raw.reshape(len(raw) // group, group, height, width).sum(axis=1)


def check(simulate, tool, work, size, frames, group, dose, seed):
    root = work / f"m{size[0]}x{size[1]}_g{group}_s{seed}"
    subprocess.run([simulate, "--mode", "movie", "--size", str(size[0]), str(size[1]), "--frames", str(frames),
                    "--dose", str(dose), "--eer_group", str(group), "--seed", str(seed), "--oroot", str(root)],
                   check=True, capture_output=True)
    with mrcfile.open(f"{root}.mrcs") as m:
        counts = m.data.astype(np.float64)
    eer = f"{root}.eer"
    for upsampling, level in UPSAMPLING.items():
        theirs = imagecodecs_fractions(eer, group, level)
        k = 1 << level
        binned = theirs.reshape(frames, size[1], k, size[0], k).sum(axis=(2, 4))
        assert np.array_equal(binned, counts), f"{root}: imagecodecs level {level} does not give the MRC counts"
        shape, ours, ours_stored = frost_read(tool, eer, upsampling, group)
        assert shape == theirs.shape[1:], (shape, theirs.shape)
        assert sorted(ours) == list(range(frames)), sorted(ours)
        for t in range(frames):
            want = theirs[t].ravel()
            assert np.array_equal(ours[t], want), f"{root}: frame {t} at u={upsampling} differs from imagecodecs"
            if ours_stored:
                assert np.array_equal(ours_stored[t], want), f"{root}: stored frame {t} at u={upsampling} differs"
        print(f"ok  {Path(eer).name}: {frames} fractions of {group} raw frames, {int(counts.sum())} electrons, "
              f"u={upsampling} same as imagecodecs superres {level}")


def main():
    simulate, tool = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory() as d:
        work = Path(d)
        check(simulate, tool, work, (64, 48), 3, 8, 1.0, 1)    # a few counts per pixel and frame
        check(simulate, tool, work, (96, 40), 2, 4, 0.2, 2)    # sparse raw frames, long runs
        check(simulate, tool, work, (160, 128), 2, 12, 2.0, 3)  # dense raw frames
    print("EER interop: all checks passed")


if __name__ == "__main__":
    main()
