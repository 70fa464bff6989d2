#!/usr/bin/env python3
"""Independent check of frost's MRC files with the `mrcfile` package (ccpem/mrcfile).

Usage: test_mrc_interop.py PATH/TO/frost_io_mrc_tool

1. frost writes files (mode 2 stream-written stack, mode 12 volume, mode 6 stack, volume stack);
   mrcfile must validate them and see the header fields and data frost meant to write.
2. mrcfile writes files (float16, int16, big-endian float32 stack); frost must read the same data.
Exit status 0 on success; the first failed check raises AssertionError.
"""
import subprocess
import sys
import tempfile
from pathlib import Path

import mrcfile
import numpy as np


def pattern(nx, ny, nz, n):
    x = np.arange(nx)[None, None, None, :]
    y = np.arange(ny)[None, None, :, None]
    z = np.arange(nz)[None, :, None, None]
    k = np.arange(n)[:, None, None, None]
    return (0.25 * (x + 8 * y + 64 * z) - 3.0 + k).astype(np.float32)  # [n][z][y][x]


def check_frost_file(path, *, shape, mode, ispg, mz, pixel, expected, origin=(0, 0, 0)):
    assert mrcfile.validate(str(path), print_file=open("/dev/null", "w")), f"{path}: mrcfile.validate failed"
    with mrcfile.open(path, permissive=False) as m:
        h = m.header
        assert (int(h.nx), int(h.ny), int(h.nz)) == shape, (path, h.nx, h.ny, h.nz)
        assert int(h.mode) == mode, (path, h.mode)
        assert int(h.ispg) == ispg, (path, h.ispg)
        assert int(h.mz) == mz, (path, h.mz)
        assert (int(h.mx), int(h.my)) == (shape[0], shape[1])
        assert (int(h.mapc), int(h.mapr), int(h.maps)) == (1, 2, 3)
        assert bytes(h.map) == b"MAP "
        assert bytes(h.machst)[:2] == b"DD", h.machst
        assert int(h.nversion) == 20141, h.nversion
        assert int(h.nlabl) == 1
        assert h.label[0].decode().startswith("frost_io_mrc_tool")
        assert np.allclose(m.voxel_size.x, pixel), (path, m.voxel_size)
        assert np.allclose([h.origin.x, h.origin.y, h.origin.z], origin)
        data = np.asarray(m.data, dtype=np.float64)
        assert data.size == expected.size, (path, data.shape, expected.shape)
        assert np.array_equal(data.ravel(), expected.astype(np.float64).ravel()), f"{path}: data differ"
        assert np.isclose(h.dmin, data.min()) and np.isclose(h.dmax, data.max()), path
        assert np.isclose(h.dmean, data.mean(), atol=1e-5), (path, h.dmean, data.mean())
        assert np.isclose(h.rms, data.std(), atol=1e-5), (path, h.rms, data.std())


def dump(tool, path):
    out = subprocess.run([tool, "dump", str(path)], check=True, capture_output=True, text=True).stdout
    fields = {}
    for line in out.splitlines():
        key, _, rest = line.partition(" ")
        fields[key] = rest.split()
    return fields


def main():
    tool = sys.argv[1]
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        subprocess.run([tool, "write", str(d)], check=True)
        check_frost_file(d / "stack.mrcs", shape=(7, 5, 3), mode=2, ispg=0, mz=1, pixel=1.5,
                         expected=pattern(7, 5, 1, 3))
        check_frost_file(d / "half.mrc", shape=(6, 5, 4), mode=12, ispg=1, mz=4, pixel=2.0,
                         expected=pattern(6, 5, 4, 1), origin=(10, 20, 30))
        counts = np.floor(4 * pattern(8, 6, 1, 2) + 100).astype(np.float32)
        check_frost_file(d / "counts.mrcs", shape=(8, 6, 2), mode=6, ispg=0, mz=1, pixel=1.5, expected=counts)
        check_frost_file(d / "volumes.mrcs", shape=(4, 3, 6), mode=2, ispg=401, mz=2, pixel=1.5,
                         expected=pattern(4, 3, 2, 3))
        with mrcfile.open(d / "volumes.mrcs") as m:
            assert m.is_volume_stack()

        # The other direction: files mrcfile writes, read by frost.
        vol = pattern(9, 7, 5, 1)[0]
        with mrcfile.new(d / "py_half.mrc") as m:
            m.set_data(vol.astype(np.float16))
            m.voxel_size = 3.0
        f = dump(tool, d / "py_half.mrc")
        assert f["shape"] == ["9", "7", "5", "1"] and f["mode"] == ["12"], f["shape"]
        assert np.allclose([float(v) for v in f["pixel"]], 3.0)
        assert np.array_equal(np.array(f["values"], dtype=np.float32), vol.ravel())

        ints = (np.arange(6 * 4 * 3).reshape(3, 4, 6) - 30).astype(np.int16)
        with mrcfile.new(d / "py_ints.mrcs") as m:
            m.set_data(ints)
            m.set_image_stack()
        f = dump(tool, d / "py_ints.mrcs")
        assert f["shape"] == ["6", "4", "1", "3"] and f["mode"] == ["1"] and f["content"] == ["stack"], f
        assert np.array_equal(np.array(f["values"], dtype=np.float32), ints.ravel().astype(np.float32))

        big = pattern(5, 4, 1, 2)[:, 0].astype(">f4")
        with mrcfile.new(d / "py_big.mrcs") as m:
            m.set_data(big)
        f = dump(tool, d / "py_big.mrcs")
        assert f["big_endian"] == ["1"], f["big_endian"]
        assert np.array_equal(np.array(f["values"], dtype=np.float32), big.astype(np.float32).ravel())
    print("mrcfile interoperability: all checks passed")


if __name__ == "__main__":
    main()
