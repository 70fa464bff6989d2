from .protocol_movie_align import ProtFrostMovieAlign
from .protocol_align_significant import ProtFrostAlignSignificant
from .protocol_reconstruct_fourier import ProtFrostReconstructFourier

__all__ = ['ProtFrostMovieAlign', 'ProtFrostAlignSignificant', 'ProtFrostReconstructFourier']
