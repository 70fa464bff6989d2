"""Conversions between Scipion objects and the files the frost programs read and write.

Particles go to frost as Xmipp metadata (`.xmd`, Xmipp labels: docs/formats.md#xmipp-metadata),
with the pose of a Scipion Transform converted as the Xmipp plugin does for projection alignments
(the Transform holds the inverse of the Xmipp pose). Results come back from frost's own files:
the align-significant `.xmd`, the movie-alignment STAR (`data_global_shift`, shifts to apply in raw
pixels) and the reconstruction's `<root>_fsc.star`.
"""
import os
from collections import OrderedDict

import numpy as np
from pwem.convert.transformations import (euler_from_matrix, euler_matrix,
                                          translation_from_matrix)
from pwem.objects import Transform

XMD_HEADER = '# XMIPP_STAR_1 *\n#\n'


# ----------------------------------------------------------------- metadata text files
def readBlocks(filename):
    """All blocks of a STAR or Xmipp metadata file: OrderedDict name -> list of rows, a row being an
    OrderedDict label -> text (labels without the leading '_'). A block of `_label value` pairs
    gives one row. Enough for the files frost writes; not a general STAR parser (no quoted values
    with spaces, no multi-line strings)."""
    blocks = OrderedDict()
    rows = labels = None
    inLoop = False
    with open(filename) as f:
        for raw in f:
            line = raw.strip()
            if not line or line.startswith('#'):
                continue
            if line.startswith('data_'):
                rows = blocks.setdefault(line[5:], [])
                labels, inLoop = [], False
                continue
            if rows is None:
                continue
            if line == 'loop_':
                labels, inLoop = [], True
                continue
            if line.startswith('_'):
                parts = line.split()
                name = parts[0][1:]
                if inLoop and (len(parts) == 1 or parts[1].startswith('#')):
                    labels.append(name)
                else:  # key-value block
                    if not rows:
                        rows.append(OrderedDict())
                    rows[0][name] = parts[1] if len(parts) > 1 else ''
                continue
            if inLoop and labels:
                values = line.split()
                if len(values) != len(labels):
                    raise ValueError('%s: row "%s" has %d values for %d labels'
                                     % (filename, line, len(values), len(labels)))
                rows.append(OrderedDict(zip(labels, values)))
    return blocks


def readBlock(filename, name=None):
    """Rows of one block (the first one when name is None); KeyError naming the file if absent."""
    blocks = readBlocks(filename)
    if name is None:
        return next(iter(blocks.values())) if blocks else []
    if name not in blocks:
        raise KeyError('%s has no block data_%s (blocks: %s)' % (filename, name, ', '.join(blocks)))
    return blocks[name]


def writeXmd(filename, labels, rows):
    """Xmipp metadata with one unnamed loop block, as Xmipp programs write it."""
    tmp = filename + '.tmp'
    with open(tmp, 'w') as f:
        f.write(XMD_HEADER)
        f.write('data_\nloop_\n')
        for label in labels:
            f.write(' _%s\n' % label)
        for row in rows:
            f.write(' '.join(_fmt(row[label]) for label in labels) + '\n')
    os.replace(tmp, filename)


def _fmt(value):
    if isinstance(value, (bool, np.bool_)):
        return '1' if value else '0'
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    if isinstance(value, (float, np.floating)):
        return repr(float(value))
    return str(value)


# ----------------------------------------------------------------- geometry
def geometryFromMatrix(matrix, inverseTransform):
    """Shifts (x, y, z) and Xmipp Euler angles (rot, tilt, psi, degrees, ZYZ) of a Scipion matrix.
    Projection alignments store the inverse of the Xmipp transformation (inverseTransform=True)."""
    matrix = np.array(matrix, dtype=float)
    if inverseTransform:
        matrix = np.linalg.inv(matrix)
        shifts = -translation_from_matrix(matrix)
    else:
        shifts = translation_from_matrix(matrix)
    angles = -np.rad2deg(euler_from_matrix(matrix, axes='szyz'))
    return shifts, angles


def matrixFromGeometry(shifts, angles, inverseTransform):
    """The inverse of geometryFromMatrix."""
    rad = -np.deg2rad(np.asarray(angles, dtype=float))
    matrix = euler_matrix(rad[0], rad[1], rad[2], 'szyz')
    shifts = np.asarray(shifts, dtype=float)
    if inverseTransform:
        matrix[:3, 3] = -shifts[:3]
        matrix = np.linalg.inv(matrix)
    else:
        matrix[:3, 3] = shifts[:3]
    return matrix


def projectionFromRow(row):
    """Transform of a projection alignment from an Xmipp row (angleRot/Tilt/Psi, shiftX/Y, flip).
    A mirrored image (flip = 1) is the same projection seen from the other side: tilt + 180,
    -psi and -shiftX, as the Xmipp plugin converts it."""
    rot = float(row.get('angleRot', 0.0))
    tilt = float(row.get('angleTilt', 0.0))
    psi = float(row.get('anglePsi', 0.0))
    sx = float(row.get('shiftX', 0.0))
    sy = float(row.get('shiftY', 0.0))
    if int(float(row.get('flip', 0))):
        tilt, psi, sx = tilt + 180.0, -psi, -sx
    return Transform(matrixFromGeometry([sx, sy, 0.0], [rot, tilt, psi], True))


def projectionToRow(transform, row):
    """Xmipp pose labels of a projection Transform (inverse of projectionFromRow, flip = 0)."""
    matrix = transform.getMatrix()
    if np.linalg.det(matrix[:3, :3]) < 0:
        raise ValueError('a projection alignment with a negative determinant is not a rotation')
    shifts, angles = geometryFromMatrix(matrix, True)
    row['angleRot'], row['angleTilt'], row['anglePsi'] = (float(a) for a in angles)
    row['shiftX'], row['shiftY'] = float(shifts[0]), float(shifts[1])
    row['flip'] = 0


# ----------------------------------------------------------------- particles
def locationToFrost(index, filename):
    """'000003@stack.mrcs' for a stack item, the file name alone for a single image."""
    return '%06d@%s' % (index, filename) if index else filename


def writeParticlesXmd(partSet, filename, withAlignment=False, withCtf=False, extraLabels=None):
    """Write a SetOfParticles as the Xmipp metadata frost reads.
    Labels: itemId (the particle's objId, to map results back), image, enabled; with withAlignment
    the projection pose (angleRot, angleTilt, anglePsi, shiftX, shiftY, flip); with withCtf the CTF
    (ctfDefocusU/V/Angle, ctfVoltage, ctfSphericalAberration, ctfQ0); extraLabels maps a label to
    a function of the particle (e.g. rlnRandomSubset). Image paths are written absolute, so the
    file works from any directory. Returns the number of rows."""
    labels = ['itemId', 'image', 'enabled']
    if withAlignment:
        labels += ['angleRot', 'angleTilt', 'anglePsi', 'shiftX', 'shiftY', 'flip']
    if withCtf:
        labels += ['ctfDefocusU', 'ctfDefocusV', 'ctfDefocusAngle', 'ctfVoltage',
                   'ctfSphericalAberration', 'ctfQ0']
    extraLabels = extraLabels or {}
    labels += list(extraLabels)
    acquisition = partSet.getAcquisition()
    rows = []
    for part in partSet.iterItems(orderBy='id'):
        index, fn = part.getLocation()
        row = OrderedDict(itemId=part.getObjId(), image=locationToFrost(index, os.path.abspath(fn)),
                          enabled=1)
        if withAlignment:
            projectionToRow(part.getTransform(), row)
        if withCtf:
            ctf = part.getCTF()
            row['ctfDefocusU'] = ctf.getDefocusU()
            row['ctfDefocusV'] = ctf.getDefocusV()
            row['ctfDefocusAngle'] = ctf.getDefocusAngle()
            partAcq = part.getAcquisition()
            if partAcq is None or partAcq.getVoltage() is None:
                partAcq = acquisition
            row['ctfVoltage'] = partAcq.getVoltage()
            row['ctfSphericalAberration'] = partAcq.getSphericalAberration()
            row['ctfQ0'] = partAcq.getAmplitudeContrast()
        for label, getter in extraLabels.items():
            row[label] = getter(part)
        rows.append(row)
    writeXmd(filename, labels, rows)
    return len(rows)


def readBestPoses(filename, scoreLabel='maxCC'):
    """Rows of an align-significant output, one per input image (itemId -> row): with --keepBestN
    above 1 an image has several rows and the one with the highest score is kept."""
    best = {}
    for row in readBlock(filename):
        key = int(row['itemId'])
        if key not in best or float(row[scoreLabel]) > float(best[key][scoreLabel]):
            best[key] = row
    return best


# ----------------------------------------------------------------- movies
def readMovieShifts(alignStar, first, last):
    """Global shifts of frames first..last (1-based, inclusive) from frost_movie_align's STAR
    (-o <name>.star, block data_global_shift): shifts to apply, in raw pixels, re-referenced so
    that frame `first` is at 0 (the convention of Scipion's MovieAlignment as the MotionCor and
    RELION plugins fill it). Returns (xshifts, yshifts)."""
    rows = {int(r['rlnMicrographFrameNumber']): r for r in readBlock(alignStar, 'global_shift')}
    missing = [n for n in range(first, last + 1) if n not in rows]
    if missing:
        raise ValueError('%s: no global shift for frame(s) %s' % (alignStar, missing))
    x0 = float(rows[first]['rlnMicrographShiftX'])
    y0 = float(rows[first]['rlnMicrographShiftY'])
    xs = [float(rows[n]['rlnMicrographShiftX']) - x0 for n in range(first, last + 1)]
    ys = [float(rows[n]['rlnMicrographShiftY']) - y0 for n in range(first, last + 1)]
    return xs, ys


def readAlignmentGeneral(alignStar):
    """The key-value block data_general of frost_movie_align's STAR (diagnostics, settings)."""
    rows = readBlock(alignStar, 'general')
    return rows[0] if rows else {}


# ----------------------------------------------------------------- reconstruction
def readFsc(fscStar):
    """(frequency [1/A], FSC) of frost_reconstruct_fourier's <root>_fsc.star."""
    rows = readBlock(fscStar, 'fsc')
    return ([float(r['rlnResolution']) for r in rows],
            [float(r['rlnFourierShellCorrelation']) for r in rows])
