"""Message understanding: what an agent's message claims, read the same way for order cases
and ticket replies, with the rulebook's own words for resolutions and facts."""

from novamart.language.claims import FactClaim, ResolutionClaim, Stance
from novamart.language.lexicon import Lexicon, lexicon_for
from novamart.language.reader import Reading, read

__all__ = ["FactClaim", "Lexicon", "Reading", "ResolutionClaim", "Stance", "lexicon_for", "read"]
