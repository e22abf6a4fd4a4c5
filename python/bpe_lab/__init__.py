"""bpe-lab from Python: tiktoken's API on bpe-lab's byte-level engine, and training.

    import bpe_lab
    enc = bpe_lab.get_encoding("cl100k_base")
    enc.encode("hello world")                      # [15339, 1917]
    mine = bpe_lab.train_bytelevel(open("corpus.txt"), vocab_size=1000)
    mine.save_tiktoken("mine.tiktoken"); mine.save_hf("tokenizer.json")
"""

from bpe_lab._bpe_lab import VERSION as _LIBRARY_VERSION
from bpe_lab._bpe_lab import LabTokenizer as LabTokenizer
from bpe_lab.core import Encoding as Encoding
from bpe_lab.registry import encoding_for_model as encoding_for_model
from bpe_lab.registry import encoding_name_for_model as encoding_name_for_model
from bpe_lab.registry import get_encoding as get_encoding
from bpe_lab.registry import list_encoding_names as list_encoding_names
from bpe_lab.train import count_chunks as count_chunks
from bpe_lab.train import read_chunk_table as read_chunk_table
from bpe_lab.train import train_bytelevel as train_bytelevel
from bpe_lab.train import train_bytelevel_from_counts as train_bytelevel_from_counts
from bpe_lab.train import train_bytelevel_from_table as train_bytelevel_from_table
from bpe_lab.train import train_lab as train_lab

__version__ = _LIBRARY_VERSION
