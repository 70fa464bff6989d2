"""Conversions and command lines, without a Scipion project (fast)."""
import os
import shutil
import subprocess
import tempfile
import unittest

import numpy as np
import pyworkflow as pw
from pyworkflow.protocol.hosts import HostConfig
from pyworkflow.utils.process import buildRunCommand

from .. import Plugin, convert
from ..constants import ALIGN_SIGNIFICANT, MOVIE_ALIGN, RECONSTRUCT_FOURIER
from ..protocols import (ProtFrostAlignSignificant, ProtFrostMovieAlign,
                         ProtFrostReconstructFourier)
from . import simulate


def rotation(transform):
    return transform.getMatrix()[:3, :3]


class TestConvert(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp(prefix='frost_convert_')
        simulate(['--mode', 'projections', '--oroot', 'parts', '--box', '16', '--count', '5', '--ctf',
                  '--max_shift', '2', '--sampling', '2', '--seed', '7'], cwd=cls.dir)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.dir, ignore_errors=True)

    def test_pose_round_trip(self):
        """Xmipp pose -> Transform -> Xmipp pose gives the same rotation and shifts."""
        rng = np.random.default_rng(3)
        for _ in range(50):
            row = {'angleRot': rng.uniform(-180, 180), 'angleTilt': rng.uniform(1, 179),
                   'anglePsi': rng.uniform(-180, 180), 'shiftX': rng.uniform(-5, 5),
                   'shiftY': rng.uniform(-5, 5)}
            back = {}
            convert.projectionToRow(convert.projectionFromRow(row), back)
            again = convert.projectionFromRow(back)
            np.testing.assert_allclose(again.getMatrix(), convert.projectionFromRow(row).getMatrix(), atol=1e-9)
            self.assertAlmostEqual(back['shiftX'], row['shiftX'], places=9)
            self.assertAlmostEqual(back['shiftY'], row['shiftY'], places=9)

    def test_projection_matrix_convention(self):
        """The Xmipp plugin's convention for projections: the matrix holds the transpose of Xmipp's
        Euler matrix A (xmippCore Euler_angles2matrix: rot 90 gives A = [[0,1,0],[-1,0,0],[0,0,1]],
        which maps x to -y, so the stored rotation maps x to +y) and the shift as given."""
        m = convert.projectionFromRow({'shiftX': 2.0, 'shiftY': -1.0}).getMatrix()
        np.testing.assert_allclose(m, [[1, 0, 0, 2], [0, 1, 0, -1], [0, 0, 1, 0], [0, 0, 0, 1]], atol=1e-12)
        r = rotation(convert.projectionFromRow({'angleRot': 90.0}))
        np.testing.assert_allclose(r, np.array([[0, 1, 0], [-1, 0, 0], [0, 0, 1]]).T, atol=1e-12)
        np.testing.assert_allclose(r @ [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], atol=1e-12)

    def test_mirrored_row_is_the_same_projection_from_the_other_side(self):
        plain = convert.projectionFromRow({'angleRot': 10, 'angleTilt': 200, 'anglePsi': -30, 'shiftX': -1.5})
        mirrored = convert.projectionFromRow({'angleRot': 10, 'angleTilt': 20, 'anglePsi': 30,
                                              'shiftX': 1.5, 'flip': 1})
        np.testing.assert_allclose(mirrored.getMatrix(), plain.getMatrix(), atol=1e-12)

    def test_read_frost_metadata(self):
        """The .xmd and RELION STAR that frost_simulate writes: same images and poses."""
        xmd = convert.readBlock(os.path.join(self.dir, 'parts.xmd'))
        star = convert.readBlock(os.path.join(self.dir, 'parts.star'), 'particles')
        optics = convert.readBlock(os.path.join(self.dir, 'parts.star'), 'optics')
        self.assertEqual(len(xmd), 5)
        self.assertEqual(len(star), 5)
        self.assertEqual(float(optics[0]['rlnImagePixelSize']), 2.0)
        for x, s in zip(xmd, star):
            self.assertEqual(x['image'], s['rlnImageName'])
            self.assertAlmostEqual(float(x['angleTilt']), float(s['rlnAngleTilt']), places=5)
            # RELION origins are in A, Xmipp shifts in px (2 A/px).
            self.assertAlmostEqual(float(x['shiftX']) * 2.0, float(s['rlnOriginXAngst']), places=4)
        with self.assertRaises(KeyError):
            convert.readBlock(os.path.join(self.dir, 'parts.star'), 'no_such_block')

    def test_movie_shifts_rereferenced_to_the_first_aligned_frame(self):
        star = os.path.join(self.dir, 'align.star')
        with open(star, 'w') as f:
            f.write('data_general\n\n_frostReferenceFrame 2\n\ndata_global_shift\n\nloop_\n'
                    '_rlnMicrographFrameNumber #1\n_frostFrameIndex #2\n_rlnMicrographShiftX #3\n'
                    '_rlnMicrographShiftY #4\n_frostEnabled #5\n'
                    '1 0 0 0 0\n2 1 3.0 -2.0 1\n3 2 0 0 1\n4 3 -1.5 0.5 1\n5 4 0 0 0\n')
        xs, ys = convert.readMovieShifts(star, 2, 4)
        np.testing.assert_allclose(xs, [0.0, -3.0, -4.5])
        np.testing.assert_allclose(ys, [0.0, 2.0, 2.5])
        self.assertEqual(convert.readAlignmentGeneral(star)['frostReferenceFrame'], '2')
        with self.assertRaises(ValueError):
            convert.readMovieShifts(star, 1, 6)

    def test_write_xmd_is_read_back(self):
        fn = os.path.join(self.dir, 'w.xmd')
        convert.writeXmd(fn, ['itemId', 'image', 'angleRot'],
                         [{'itemId': 1, 'image': '000001@/a_b/s.mrcs', 'angleRot': 0.1},
                          {'itemId': 2, 'image': '000002@/a_b/s.mrcs', 'angleRot': -45.0}])
        rows = convert.readBlock(fn)
        self.assertEqual([r['itemId'] for r in rows], ['1', '2'])
        self.assertEqual(float(rows[1]['angleRot']), -45.0)


class TestCommandLines(unittest.TestCase):
    """The command lines pyworkflow builds from the protocols' GPU and MPI settings, run by the
    real programs with --validate (which parses and checks them without a GPU)."""

    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp(prefix='frost_cmd_')
        simulate(['--mode', 'projections', '--oroot', 'parts', '--box', '16', '--count', '4',
                  '--sampling', '2', '--seed', '7'], cwd=cls.dir)
        # --validate checks that the inputs exist: a movie for the movie alignment command line.
        simulate(['--mode', 'movie', '--oroot', 'movie', '--size', '64', '64', '--frames', '3',
                  '--seed', '7'], cwd=cls.dir)
        hosts = HostConfig.load(pw.Config.SCIPION_HOSTS)
        cls.host = hosts['localhost']

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.dir, ignore_errors=True)

    def _command(self, program, args, mpi, gpus):
        return buildRunCommand(Plugin.getProgram(program), args, mpi, self.host,
                               env=Plugin.getEnviron(), gpuList=gpus)

    def _validate(self, command):
        done = subprocess.run(command + ' --validate', shell=True, cwd=self.dir, env=Plugin.getEnviron(),
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
        self.assertEqual(done.returncode, 0, '%s\n%s' % (command, done.stdout))

    def test_programs_found(self):
        self.assertEqual(Plugin.validateInstallation(), [])
        # Scipion resolves an MPI run's program through the environment's PATH.
        path = Plugin.getEnviron()['PATH']
        self.assertEqual(shutil.which(RECONSTRUCT_FOURIER, path=path), Plugin.getProgram(RECONSTRUCT_FOURIER))

    def test_gpu_ids_reach_the_program_as_one_argument(self):
        prot = ProtFrostReconstructFourier()
        prot.useGpu.set(True)
        prot.gpuList.set('0 1')
        self.assertEqual(prot.getGpuList(), [0, 1])
        args = '-i parts.xmd -o map.mrc --sampling 2' + prot._deviceArgs()
        command = self._command(RECONSTRUCT_FOURIER, args, 2, prot.getGpuList())
        self.assertIn('mpirun -np 2', command)
        self.assertIn('--device "0 1"', command)
        self._validate(command)

    def test_cpu_and_single_gpu(self):
        prot = ProtFrostAlignSignificant()
        prot.useGpu.set(False)
        self.assertEqual(prot._deviceArgs(), ' --device cpu')
        movie = ProtFrostMovieAlign()
        movie.useGpu.set(True)
        args = '-i parts.xmd -o angles.xmd -r parts.xmd' + movie._deviceArgs()
        command = self._command(ALIGN_SIGNIFICANT, args, 1, [1])
        self.assertNotIn('mpirun', command)
        self.assertTrue(command.strip().endswith('--device "1"'), command)
        self._validate(command)
        self._validate(self._command(MOVIE_ALIGN, '-i movie.mrcs --oavg mic.mrc --device "1"', 1, [1]))


if __name__ == '__main__':
    unittest.main()
