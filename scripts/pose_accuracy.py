#!/usr/bin/env python3
"""Pose accuracy of frost_align_significant against frost_simulate ground truth (used by demo.sh).

usage: pose_accuracy.py truth.xmd aligned.xmd  (rows joined by itemId; the first row per image is taken)"""
import math, sys
def read_xmd(path):
    labels, rows = [], []
    for line in open(path):
        t = line.split()
        if not t or t[0].startswith('#') or t[0] in ('data_', 'loop_'): continue
        if t[0].startswith('_'): labels.append(t[0][1:]); continue
        rows.append(dict(zip(labels, t)))
    return rows
def euler(rot, tilt, psi):
    a, b, g = (math.radians(v) for v in (rot, tilt, psi))
    ca, sa, cb, sb, cg, sg = math.cos(a), math.sin(a), math.cos(b), math.sin(b), math.cos(g), math.sin(g)
    return [[cg*cb*ca - sg*sa, cg*cb*sa + sg*ca, -cg*sb], [-sg*cb*ca - cg*sa, -sg*cb*sa + cg*ca, sg*sb], [sb*ca, sb*sa, cb]]
def angle(A, B):
    tr = sum(A[i][k] * B[i][k] for i in range(3) for k in range(3))
    return math.degrees(math.acos(max(-1.0, min(1.0, (tr - 1) / 2))))
truth = {r['itemId']: r for r in read_xmd(sys.argv[1])}
est, seen = [], set()
for r in read_xmd(sys.argv[2]):  # keepBestN > 1 writes several rows per image, best first
    if r['itemId'] not in seen:
        seen.add(r['itemId'])
        est.append(r)
rot_err, dir_err, shift_err = [], [], []
for r in est:
    t = truth[r['itemId']]
    f = lambda d, k: float(d[k])
    A, B = euler(f(t, 'angleRot'), f(t, 'angleTilt'), f(t, 'anglePsi')), euler(f(r, 'angleRot'), f(r, 'angleTilt'), f(r, 'anglePsi'))
    rot_err.append(angle(A, B))
    dir_err.append(math.degrees(math.acos(max(-1.0, min(1.0, sum(A[2][k] * B[2][k] for k in range(3)))))))
    shift_err.append(math.hypot(f(r, 'shiftX') - f(t, 'shiftX'), f(r, 'shiftY') - f(t, 'shiftY')))
med = lambda v: sorted(v)[len(v) // 2]
print("  %d images: median 3-D pose error %.1f deg (direction %.1f deg; gallery spacing ~14 deg), %d %% within 10 deg; "
      "median shift error %.2f px" % (len(est), med(rot_err), med(dir_err), 100 * sum(e <= 10 for e in rot_err) // len(est), med(shift_err)))
