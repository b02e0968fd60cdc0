"""Message understanding: what an agent's message claims, read the same way for order cases
and ticket replies, with the rulebook's own words for resolutions and facts."""

from novamart.language.claims import (
    ConditionalClaim,
    FactClaim,
    PolicyClaim,
    ResolutionClaim,
    Stance,
    UnverifiableClaim,
)
from novamart.language.lexicon import Lexicon, lexicon_for
from novamart.language.reader import Reading, read, rudeness, warm_up

__all__ = [
    "ConditionalClaim",
    "FactClaim",
    "Lexicon",
    "PolicyClaim",
    "Reading",
    "ResolutionClaim",
    "Stance",
    "UnverifiableClaim",
    "lexicon_for",
    "read",
    "rudeness",
    "warm_up",
]
