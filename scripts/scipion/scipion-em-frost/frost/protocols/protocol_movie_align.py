"""frost_movie_align as a Scipion movie-alignment protocol (FlexAlign design, CPU or one GPU per movie)."""
import os
from math import ceil

import pyworkflow.object as pwobj
import pyworkflow.protocol.constants as cons
import pyworkflow.protocol.params as params
import pyworkflow.utils as pwutils
from pwem.objects import Image
from pwem.protocols import ProtAlignMovies

from .. import convert
from ..constants import EXIT_MEANING, MOVIE_ALIGN
from .protocol_base import FrostProtocolBase


class ProtFrostMovieAlign(FrostProtocolBase, ProtAlignMovies):
    """Aligns the frames of each movie with frost_movie_align: every frame pair is correlated at
    low resolution and the global shifts solved by robust least squares; patches are aligned the
    same way and a cubic B-spline fitted to their motion; the frames are warped and summed,
    optionally dose weighted. One movie per step: with several Scipion threads, movies run in
    parallel and each thread takes one GPU of the list.
    """
    _label = 'movie alignment'
    evenOddCapable = True

    def __init__(self, **kwargs):
        ProtAlignMovies.__init__(self, **kwargs)
        self.stepsExecutionMode = cons.STEPS_PARALLEL

    # frost reads MRC, TIFF and EER movies as they are.
    def _getConvertExtension(self, filename):
        ext = pwutils.getExt(filename).lower()
        return None if ext in ['.mrc', '.mrcs', '.tif', '.tiff', '.eer'] else 'mrcs'

    # --------------------------- DEFINE param functions -----------------------
    def _defineAlignmentParams(self, form):
        ProtAlignMovies._defineAlignmentParams(self, form)
        # frost does not crop (Scipion's ROI stays the full frame).
        form._paramsDict['Alignment']._paramList.remove('Crop_offsets__px_')
        form._paramsDict['Alignment']._paramList.remove('Crop_dimensions__px_')

        form.addParam('maxResForCorrelation', params.FloatParam, default=20,
                      label='Maximum resolution (A)',
                      help='Resolution at which the correlation low-pass is 0.5 (--maxResForCorrelation).')
        form.addParam('maxShift', params.FloatParam, default=50,
                      expertLevel=cons.LEVEL_ADVANCED, label='Maximum shift (A)',
                      help='Search radius of each pairwise correlation (--maxShift).')

        group = form.addGroup('Local alignment')
        group.addParam('doLocalAlignment', params.BooleanParam, default=True,
                       label='Compute local alignment?',
                       help='Patches fitted by a cubic B-spline; No = global shifts only '
                            '(--skipLocalAlignment).')
        group.addParam('autoControlPoints', params.BooleanParam, default=True,
                       condition='doLocalAlignment', label='Auto control points',
                       expertLevel=cons.LEVEL_ADVANCED,
                       help='One control point per 1000 A of field of view plus two, and one per '
                            '7 frames plus two in time (at least 3), as FlexAlign.')
        line = group.addLine('Control points', condition='doLocalAlignment and not autoControlPoints',
                             expertLevel=cons.LEVEL_ADVANCED)
        line.addParam('controlPointX', params.IntParam, default=6, label='X')
        line.addParam('controlPointY', params.IntParam, default=6, label='Y')
        line.addParam('controlPointT', params.IntParam, default=5, label='t')
        group.addParam('autoPatches', params.BooleanParam, default=True,
                       condition='doLocalAlignment', label='Auto patches',
                       expertLevel=cons.LEVEL_ADVANCED,
                       help='Patch grid from the minimal patch size.')
        line = group.addLine('Patches', condition='doLocalAlignment and not autoPatches',
                             expertLevel=cons.LEVEL_ADVANCED)
        line.addParam('patchesX', params.IntParam, default=7, label='X')
        line.addParam('patchesY', params.IntParam, default=7, label='Y')
        group.addParam('minLocalRes', params.FloatParam, default=500,
                       condition='doLocalAlignment', expertLevel=cons.LEVEL_ADVANCED,
                       label='Min size of the patch (A)', help='--minLocalRes')
        group.addParam('groupNFrames', params.IntParam, default=3,
                       condition='doLocalAlignment', expertLevel=cons.LEVEL_ADVANCED,
                       label='Group N frames', help='Frames summed for each patch image (--patchesAvg).')

        group = form.addGroup('Dose weighting')
        group.addParam('doApplyDoseFilter', params.BooleanParam, default=True,
                       label='Apply dose filter',
                       help='Dose-weighted micrograph (needs the dose per frame of the movies).')
        group.addParam('doSaveUnweightedMic', params.BooleanParam, default=True,
                       condition='doApplyDoseFilter', label='Save unweighted micrographs?')

        form.addParam('eerFractions', params.IntParam, default=40,
                      expertLevel=cons.LEVEL_ADVANCED, label='EER fractions',
                      help='EER movies: number of fractions the raw frames are grouped into.')
        form.addParam('doComputePSD', params.BooleanParam, default=False,
                      label='Compute PSD?', help='Power spectrum of the aligned sum (--opsd).')
        form.addParam('extraParams', params.StringParam, default='',
                      expertLevel=cons.LEVEL_ADVANCED, label='Additional parameters',
                      help='Other frost_movie_align options, e.g. --interp fourier --reference first.')

        form.addSection(label='Gain orientation')
        form.addParam('gainRot', params.EnumParam, default=0,
                      choices=['no rotation', '90 degrees', '180 degrees', '270 degrees'],
                      display=params.EnumParam.DISPLAY_COMBO, label='Rotate gain reference',
                      help='Counter-clockwise, in steps of 90 degrees (--gain-rot).')
        form.addParam('gainFlip', params.EnumParam, default=0,
                      choices=['no flip', 'upside down', 'left right'],
                      display=params.EnumParam.DISPLAY_COMBO, label='Flip gain reference',
                      help='After the rotation (--gain-flip).')

        form.addParallelSection(threads=1, mpi=0, binThreads=4,
                                binThreadsHelp='CPU threads of each frost_movie_align run (--thr).')
        self._defineGpuParams(form)

    # --------------------------- STEPS functions ------------------------------
    def _processMovie(self, movie):
        try:
            self._runAlignment(movie)
        except Exception as e:
            # A failed movie is left out of the outputs (ProtAlignMovies reports it), as the
            # other movie-alignment plugins do; the log keeps frost's message.
            status = getattr(e, 'returncode', None)
            why = ' (%s)' % EXIT_MEANING[status] if status in EXIT_MEANING else ''
            self.error('frost_movie_align failed for %s%s: %s' % (movie.getFileName(), why, e))

    def _runAlignment(self, movie):
        n = self._getNumberOfFrames(movie)
        a0, aN = self._getFrameRange(n, 'align')
        s0, sN = self._getFrameRange(n, 'sum')
        self._runFrost(MOVIE_ALIGN, self._getArgs(movie, a0, aN, s0, sN), numberOfMpi=1)
        if not os.path.exists(self._getAlignmentFile(movie)):
            raise Exception('frost_movie_align exited 0 without writing %s'
                            % self._getAlignmentFile(movie))

    def _getArgs(self, movie, a0, aN, s0, sN):
        """The frost_movie_align command line for one movie (frames 1-based in Scipion, 0-based
        in frost)."""
        inputMovies = self.inputMovies.get()
        acq = inputMovies.getAcquisition()
        args = ' -i "%s"' % os.path.abspath(movie.getFileName())
        args += ' -o "%s"' % os.path.abspath(self._getAlignmentFile(movie))
        args += ' --sampling %f' % inputMovies.getSamplingRate()
        args += ' --frameRange %d %d --frameRangeSum %d %d' % (a0 - 1, aN - 1, s0 - 1, sN - 1)
        if self.binFactor.get() > 1:
            args += ' --bin %f' % self.binFactor.get()
        args += ' --maxResForCorrelation %f --maxShift %f' % (self.maxResForCorrelation.get(),
                                                               self.maxShift.get())
        if self.doLocalAlignment:
            x, y, t = self._getControlPoints(movie)
            args += ' --controlPoints %d %d %d --patchesAvg %d --minLocalRes %f' % (
                x, y, t, self.groupNFrames.get(), self.minLocalRes.get())
            if not self.autoPatches:
                args += ' --patches %d %d' % (self.patchesX.get(), self.patchesY.get())
        else:
            args += ' --skipLocalAlignment'

        extra = lambda name: '"%s"' % os.path.abspath(self._getExtraPath(name))
        if self._createOutputWeightedMicrographs():
            preExposure, dose = self._getCorrectedDose(inputMovies)
            args += ' --dose-weight --dose-per-frame %f --pre-exposure %f --voltage %f' % (
                dose, preExposure, acq.getVoltage())
            args += ' --oavg %s' % extra(self._getOutputMicWtName(movie))
            if self._createOutputMicrographs():
                args += ' --oavg-nodw %s' % extra(self._getOutputMicName(movie))
        else:
            args += ' --oavg %s' % extra(self._getOutputMicName(movie))
        if self._doSplitEvenOdd():
            # ROOT_EVN.mrc / ROOT_ODD.mrc are the names ProtAlignMovies expects.
            args += ' --ohalves %s' % extra(self._getMovieRoot(movie) + '_aligned_mic')
        if self.doSaveMovie:
            args += ' --oaligned %s' % extra(self._getOutputMovieName(movie))
        if self.doComputePSD:
            args += ' --opsd %s' % extra(self._getPsdName(movie))

        gain, dark = inputMovies.getGain(), inputMovies.getDark()
        if gain:
            args += ' --gain "%s" --gain-rot %d --gain-flip %d' % (
                os.path.abspath(gain), self.gainRot.get(), self.gainFlip.get())
        if dark:
            args += ' --dark "%s"' % os.path.abspath(dark)
        if self._isEer(movie):
            args += ' --eer-fractions %d' % self.eerFractions.get()
        args += ' --thr %d' % self._getBinThreads()
        args += self._deviceArgs()
        if self.extraParams.get():
            args += ' ' + self.extraParams.get()
        return args

    # --------------------------- UTILS functions ------------------------------
    def _getBinThreads(self):
        return max(1, self.getAttributeValue(params.BIN_THREADS_PARAM, 1))

    def _isEer(self, movie):
        return movie.getFileName().lower().endswith('.eer')

    def _getNumberOfFrames(self, movie):
        if self._isEer(movie):
            return self.eerFractions.get()
        return movie.getDim()[2]

    def _getControlPoints(self, movie):
        """FlexAlign's automatic rule (docs/formats.md#the-frost-plugin), else the user's values."""
        if not self.autoControlPoints:
            return self.controlPointX.get(), self.controlPointY.get(), self.controlPointT.get()
        x, y, _ = movie.getDim()
        frames = self._getNumberOfFrames(movie)
        ts = self.inputMovies.get().getSamplingRate()
        return (max(int(int(x * ts) / 1000 + 2), 3), max(int(int(y * ts) / 1000 + 2), 3),
                max(ceil(frames / 7.0) + 2, 3))

    def _getAlignmentFile(self, movie):
        return self._getExtraPath(self._getMovieRoot(movie) + '_align.star')

    def _getPsdName(self, movie):
        return self._getMovieRoot(movie) + '_psd.mrc'

    def _getMovieShifts(self, movie):
        n = self._getNumberOfFrames(movie)
        a0, aN = self._getFrameRange(n, 'align')
        return convert.readMovieShifts(self._getAlignmentFile(movie), a0, aN)

    def _preprocessOutputMicrograph(self, mic, movie):
        general = convert.readAlignmentGeneral(self._getAlignmentFile(movie))
        mic._frost_motionModel = pwobj.String(general.get('frostMotionModel', ''))
        if 'frostLocalFitRmsd' in general:
            mic._frost_localFitRmsd = pwobj.Float(float(general['frostLocalFitRmsd']))
        if self.doComputePSD:
            mic.psdCorr = Image(location=self._getExtraPath(self._getPsdName(movie)))

    def _createOutputMicrographs(self):
        return not self._createOutputWeightedMicrographs() or self.doSaveUnweightedMic.get()

    def _createOutputWeightedMicrographs(self):
        return bool(self.doApplyDoseFilter.get())

    # --------------------------- INFO functions -------------------------------
    def _validate(self):
        errors = ProtAlignMovies._validate(self)
        errors += self._validateFrost()
        movies = self.inputMovies.get()
        if movies is not None and self.doApplyDoseFilter and not movies.getAcquisition().getDosePerFrame():
            errors.append('Dose weighting needs the dose per frame of the movies (import them with it, '
                          'or set "Apply dose filter" to No).')
        if self.binFactor.get() < 1:
            errors.append('The binning factor must be >= 1.')
        if self.doLocalAlignment and not self.autoControlPoints:
            if min(self.controlPointX.get(), self.controlPointY.get(), self.controlPointT.get()) < 3:
                errors.append('At least 3 control points per dimension.')
        return errors

    def _summary(self):
        summary = []
        if hasattr(self, 'outputMovies'):
            summary.append('Aligned %d movies with frost_movie_align (%s).'
                           % (self.outputMovies.getSize(), 'GPU' if self.usesGpu() else 'CPU'))
        else:
            summary.append('Output is not ready yet.')
        return summary
