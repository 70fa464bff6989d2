"""The three protocols run for real in a Scipion project on data made by frost_simulate (CPU;
MPI with 2 ranks through the host's PARALLEL_COMMAND for align significant and reconstruction)."""
import os

import mrcfile
import numpy as np
from pwem.objects import Acquisition, CTFModel, Particle, SetOfParticles
from pwem.protocols import ProtImportMovies, ProtImportParticles, ProtImportVolumes
from pyworkflow.tests import BaseTest, setupTestProject

from .. import convert
from ..protocols import (ProtFrostAlignSignificant, ProtFrostMovieAlign,
                         ProtFrostReconstructFourier)
from ..constants import RECONSTRUCT_FOURIER
from . import run, simulate

MOVIE_PIXEL = 1.0    # A/px of the movies
DOSE = 2.0           # e/px/frame = e/A^2/frame at 1 A/px
FRAMES = 10
PARTICLE_PIXEL = 3.0
BOX = 32


def angleBetween(a, b):
    """Angle [deg] of the rotation between two rotation matrices."""
    c = (np.trace(a.T @ b) - 1.0) / 2.0
    return float(np.degrees(np.arccos(np.clip(c, -1.0, 1.0))))


def correlation(fileA, fileB):
    with mrcfile.open(fileA, permissive=True) as a, mrcfile.open(fileB, permissive=True) as b:
        x, y = a.data.astype(float).ravel(), b.data.astype(float).ravel()
    return float(np.corrcoef(x, y)[0, 1])


class TestFrostProtocols(BaseTest):
    @classmethod
    def setUpClass(cls):
        setupTestProject(cls)
        cls.data = os.path.abspath(cls.proj.getPath('frost_data'))
        os.makedirs(cls.data, exist_ok=True)
        cls._simulateData()
        cls._importData()

    # --------------------------------------------------------------- data
    @classmethod
    def _simulateData(cls):
        # Two movies with the same gain (same seed) and different motion.
        for name, trajectory in (('movie_T1', 'T1'), ('movie_T2', 'T2')):
            simulate(['--mode', 'movie', '--oroot', name, '--size', '512', '512', '--frames', str(FRAMES),
                      '--trajectory', trajectory, '--dose', str(DOSE), '--contrast', '0.2', '--gain',
                      '--sampling', str(MOVIE_PIXEL), '--seed', '5'], cwd=cls.data)
        # Particles without CTF to align, and their phantom as the reference.
        simulate(['--mode', 'projections', '--oroot', 'align', '--box', str(BOX), '--blobs', '30',
                  '--count', '40', '--max_shift', '2', '--snr', '2', '--sampling', str(PARTICLE_PIXEL),
                  '--seed', '12'], cwd=cls.data)
        # Particles with CTF and known poses to reconstruct from.
        simulate(['--mode', 'projections', '--oroot', 'ctf', '--volume', 'align_phantom.mrc',
                  '--count', '400', '--snr', '2', '--ctf', '--sampling', str(PARTICLE_PIXEL),
                  '--seed', '4'], cwd=cls.data)
        cls._writeTruthSqlite(os.path.join(cls.data, 'ctf.xmd'), os.path.join(cls.data, 'ctf_particles.sqlite'))

    @classmethod
    def _writeTruthSqlite(cls, xmd, sqlite):
        """A Scipion SetOfParticles with the true poses and CTFs (imported below with the
        'scipion' importer of ProtImportParticles)."""
        acquisition = Acquisition(voltage=300.0, sphericalAberration=2.7, amplitudeContrast=0.1,
                                  magnification=50000)
        parts = SetOfParticles(filename=sqlite)
        parts.setSamplingRate(PARTICLE_PIXEL)
        parts.setAcquisition(acquisition)
        parts.setAlignmentProj()
        parts.setHasCTF(True)
        for row in convert.readBlock(xmd):
            index, stack = row['image'].split('@')
            part = Particle(location=(int(index), os.path.join(cls.data, stack)))
            part.setAcquisition(acquisition.clone())
            part.setTransform(convert.projectionFromRow(row))
            ctf = CTFModel()
            ctf.setStandardDefocus(float(row['ctfDefocusU']), float(row['ctfDefocusV']),
                                   float(row['ctfDefocusAngle']))
            part.setCTF(ctf)
            parts.append(part)
        parts.write()
        parts.close()

    @classmethod
    def _importData(cls):
        cls.protMovies = cls.newProtocol(ProtImportMovies, objLabel='import movies',
                                         filesPath=cls.data, filesPattern='movie_T*.mrcs',
                                         samplingRate=MOVIE_PIXEL, voltage=300, sphericalAberration=2.7,
                                         dosePerFrame=DOSE, gainFile=os.path.join(cls.data, 'movie_T1_gain.mrc'))
        cls.launchProtocol(cls.protMovies)
        cls.protParticles = cls.newProtocol(ProtImportParticles, objLabel='import particles',
                                            filesPath=cls.data, filesPattern='align.mrcs',
                                            samplingRate=PARTICLE_PIXEL)
        cls.launchProtocol(cls.protParticles)
        cls.protVolume = cls.newProtocol(ProtImportVolumes, objLabel='import phantom',
                                         filesPath=os.path.join(cls.data, 'align_phantom.mrc'),
                                         samplingRate=PARTICLE_PIXEL)
        cls.launchProtocol(cls.protVolume)
        cls.protCtfParticles = cls.newProtocol(ProtImportParticles, objLabel='import particles with CTF',
                                               importFrom=ProtImportParticles.IMPORT_FROM_SCIPION,
                                               sqliteFile=os.path.join(cls.data, 'ctf_particles.sqlite'),
                                               samplingRate=PARTICLE_PIXEL, voltage=300,
                                               sphericalAberration=2.7, amplitudeContrast=0.1)
        cls.launchProtocol(cls.protCtfParticles)

    def _truthShifts(self, movieName):
        """True shifts to apply of frames 1..N, relative to frame 1 (frost_simulate's truth)."""
        rows = convert.readBlock(os.path.join(self.data, movieName + '_truth.star'), 'global_shift')
        return ([float(r['rlnMicrographShiftX']) for r in rows], [float(r['rlnMicrographShiftY']) for r in rows])

    def _logText(self, prot, stderr=False):
        with open(prot.getStderrLog() if stderr else prot.getStdoutLog()) as f:
            return f.read()

    # --------------------------------------------------------------- movies
    def test_movie_align(self):
        prot = self.newProtocol(ProtFrostMovieAlign, objLabel='frost movie alignment',
                                useGpu=False, binThreads=2, splitEvenOdd=True,
                                doApplyDoseFilter=True, doSaveUnweightedMic=True,
                                minLocalRes=200, doComputePSD=True)
        prot.inputMovies.set(self.protMovies.outputMovies)
        self.launchProtocol(prot)

        for name in ('outputMovies', 'outputMicrographs', 'outputMicrographsDoseWeighted',
                     'outputMicrographsEven', 'outputMicrographsOdd'):
            output = getattr(prot, name, None)
            self.assertIsNotNone(output, name)
            self.assertSetSize(output, 2, name)
        self.assertAlmostEqual(prot.outputMicrographs.getSamplingRate(), MOVIE_PIXEL)
        for mic in prot.outputMicrographsDoseWeighted:
            self.assertTrue(os.path.exists(mic.getFileName()), mic.getFileName())
            self.assertTrue(mic.getFileName().endswith('_aligned_mic_DW.mrc'))
            self.assertEqual(mic.getDim(), (512, 512, 1))
            self.assertEqual(mic._frost_motionModel.get(), 'bspline')
            self.assertTrue(os.path.exists(mic.psdCorr.getFileName()))

        for movie in prot.outputMovies:
            alignment = movie.getAlignment()
            self.assertEqual(alignment.getRange(), (1, FRAMES))
            xs, ys = alignment.getShifts()
            self.assertEqual(len(xs), FRAMES)
            self.assertEqual((xs[0], ys[0]), (0.0, 0.0))
            tx, ty = self._truthShifts(os.path.splitext(os.path.basename(movie.getFileName()))[0])
            err = max(np.hypot(np.subtract(xs, tx), np.subtract(ys, ty)))
            self.assertLess(err, 0.5, 'shift error %.3f px for %s' % (err, movie.getFileName()))
            self.assertGreater(max(np.hypot(tx, ty)), 2.0)  # the motion is real

        log = self._logText(prot)
        self.assertIn('--device cpu', log)
        self.assertIn('--dose-weight --dose-per-frame %f' % DOSE, log)

    def test_movie_align_frame_range_global_two_threads(self):
        """Frames 2..9 aligned, 3..8 summed, global only, 2 Scipion threads (movies in parallel)."""
        prot = self.newProtocol(ProtFrostMovieAlign, objLabel='frost movie alignment, frames 2-9',
                                useGpu=False, numberOfThreads=2, binThreads=1,
                                alignFrame0=2, alignFrameN=9, useAlignToSum=False, sumFrame0=3,
                                sumFrameN=8, doLocalAlignment=False, doApplyDoseFilter=False)
        prot.inputMovies.set(self.protMovies.outputMovies)
        self.launchProtocol(prot)
        self.assertSetSize(prot.outputMicrographs, 2)
        self.assertIsNone(getattr(prot, 'outputMicrographsDoseWeighted', None))
        for movie in prot.outputMovies:
            self.assertEqual(movie.getAlignment().getRange(), (2, 9))
            xs, ys = movie.getAlignment().getShifts()
            self.assertEqual(len(xs), 8)
            tx, ty = self._truthShifts(os.path.splitext(os.path.basename(movie.getFileName()))[0])
            tx, ty = np.subtract(tx[1:9], tx[1]), np.subtract(ty[1:9], ty[1])
            self.assertLess(max(np.hypot(np.subtract(xs, tx), np.subtract(ys, ty))), 0.5)
        log = self._logText(prot)
        self.assertIn('--frameRange 1 8 --frameRangeSum 2 7', log)
        self.assertIn('--skipLocalAlignment', log)

    # --------------------------------------------------------------- particles
    def test_align_significant_then_reconstruct(self):
        align = self.newProtocol(ProtFrostAlignSignificant, objLabel='frost align significant (2 MPI)',
                                 useGpu=False, numberOfMpi=2, numberOfThreads=1, angularSampling=15)
        align.inputParticles.set(self.protParticles.outputParticles)
        align.inputVolume.set(self.protVolume.outputVolume)
        self.launchProtocol(align)

        out = align.outputParticles
        self.assertSetSize(out, 40)
        self.assertTrue(out.hasAlignmentProj())
        self.assertAlmostEqual(out.getSamplingRate(), PARTICLE_PIXEL)
        truth = convert.readBlock(os.path.join(self.data, 'align.xmd'))
        errors = []
        for part, row in zip(out.iterItems(orderBy='id'), truth):
            self.assertTrue(part.getFileName().endswith('align.mrcs'))
            errors.append(angleBetween(convert.projectionFromRow(row).getMatrix()[:3, :3],
                                       part.getTransform().getMatrix()[:3, :3]))
            self.assertGreater(part._frost_maxCC.get(), 0.0)
        # A 15-degree gallery: the median pose error is about half the spacing.
        self.assertLess(float(np.median(errors)), 12.0, 'pose errors %s' % np.round(errors, 1))
        self.assertIn('mpirun -np 2', self._logText(align))
        self.assertIn('2 rank(s)', self._logText(align, stderr=True))  # frost's own report

        rec = self.newProtocol(ProtFrostReconstructFourier, objLabel='frost reconstruction of the aligned',
                               useGpu=False, splitHalves=False, numberOfThreads=2)
        rec.inputParticles.set(out)
        self.launchProtocol(rec)
        volume = rec.outputVolume
        self.assertTrue(os.path.exists(volume.getFileName()))
        self.assertFalse(volume.hasHalfMaps())
        self.assertGreater(correlation(volume.getFileName(), os.path.join(self.data, 'align_phantom.mrc')), 0.6)

    def test_reconstruct_ctf_halves_mpi(self):
        prot = self.newProtocol(ProtFrostReconstructFourier, objLabel='frost reconstruction (CTF, halves, 2 MPI)',
                                useGpu=False, numberOfMpi=2, numberOfThreads=1, doCTF=True,
                                splitHalves=True, symmetryGroup='c1')
        prot.inputParticles.set(self.protCtfParticles.outputParticles)
        self.launchProtocol(prot)

        volume = prot.outputVolume
        self.assertEqual(volume.getDim(), (BOX, BOX, BOX))
        self.assertAlmostEqual(volume.getSamplingRate(), PARTICLE_PIXEL)
        with mrcfile.open(volume.getFileName(), permissive=True) as m:
            self.assertAlmostEqual(float(m.voxel_size.x), PARTICLE_PIXEL, places=3)
        self.assertTrue(volume.hasHalfMaps())
        halves = volume.getHalfMaps().split(',')
        self.assertEqual(len(halves), 2)
        for half in halves:
            self.assertTrue(os.path.exists(half), half)
        phantom = os.path.join(self.data, 'align_phantom.mrc')
        self.assertGreater(correlation(volume.getFileName(), phantom), 0.7)
        # The same program run directly on frost_simulate's metadata (true poses, CTF): the
        # Scipion objects -> input_particles.xmd conversion must change nothing.
        direct = os.path.join(self.data, 'direct', 'map.mrc')
        os.makedirs(os.path.dirname(direct), exist_ok=True)
        run(RECONSTRUCT_FOURIER, ['-i', 'ctf.xmd', '-o', direct, '--sampling', str(PARTICLE_PIXEL),
                                  '--useCTF', '--halves', '--device', 'cpu'], cwd=self.data)
        self.assertGreater(correlation(volume.getFileName(), direct), 0.999)
        self.assertGreater(correlation(halves[0], halves[1]), 0.3)  # 200 particles each, SNR 2
        freq, fsc = prot.outputFSC.getData()
        self.assertEqual(len(freq), len(fsc))
        self.assertAlmostEqual(float(fsc[0]), 1.0, places=3)
        self.assertLess(float(prot.outputFSC.calculateResolution()), 20.0)
        log = self._logText(prot)
        self.assertIn('mpirun -np 2', log)
        self.assertIn('--useCTF --ctf_mode invert', log)
        self.assertIn('2 rank(s)', self._logText(prot, stderr=True))

    def test_failed_run_fails_the_protocol(self):
        """frost exits with 2 on an unknown symmetry: the step, and so the protocol, fails."""
        prot = self.newProtocol(ProtFrostReconstructFourier, objLabel='frost reconstruction, bad symmetry',
                                useGpu=False, splitHalves=False, symmetryGroup='x7')
        prot.inputParticles.set(self.protCtfParticles.outputParticles)
        with self.assertRaises(Exception):
            self.launchProtocol(prot)
        self.assertTrue(prot.isFailed())
        self.assertFalse(hasattr(prot, 'outputVolume'))
        self.assertIn('x7', self._logText(prot, stderr=True))
