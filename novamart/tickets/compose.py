"""Shared pieces for writing tickets: customers, products, ids and the ways people
open and close a message. Everything is drawn from a ``random.Random`` so a seed fixes it."""

from __future__ import annotations

import random

FIRST = (
    "Priya",
    "Tom",
    "Aisha",
    "Mateo",
    "Lena",
    "Kwame",
    "Sofia",
    "Daniel",
    "Mei",
    "Omar",
    "Grace",
    "Lucas",
    "Hana",
    "Noah",
    "Zara",
    "Ivan",
    "Chloe",
    "Ravi",
    "Emma",
    "Jonas",
)
LAST = (
    "Sharma",
    "Becker",
    "Okafor",
    "Silva",
    "Novak",
    "Mensah",
    "Rossi",
    "Kim",
    "Chen",
    "Haddad",
    "Turner",
    "Moreau",
    "Sato",
    "Walsh",
    "Iqbal",
    "Petrov",
    "Dubois",
    "Nair",
)
PRODUCTS = {
    "phone": ("Nova X12 phone", "Nova X12 Pro phone", "Nova Lite phone"),
    "laptop": ("NovaBook 14 laptop", "NovaBook Pro 16 laptop", "NovaBook Air laptop"),
    "earbuds": ("NovaBuds Air earbuds", "NovaBuds Pro earbuds"),
    "smartwatch": ("NovaWatch 3 smartwatch", "NovaWatch Sport smartwatch"),
}
DOMAINS = ("gmail.com", "outlook.com", "yahoo.com", "proton.me", "icloud.com", "fastmail.com")
OPENERS = ("Hi,", "Hello,", "Hi there,", "Hello NovaMart team,", "Good morning,", "Hey,", "")
CLOSERS = ("Thanks,", "Thank you,", "Regards,", "Best,", "Cheers,", "Many thanks,")


def name(rng: random.Random) -> str:
    return f"{rng.choice(FIRST)} {rng.choice(LAST)}"


def product(rng: random.Random) -> str:
    return rng.choice(PRODUCTS[rng.choice(sorted(PRODUCTS))])


def order_id(rng: random.Random) -> str:
    return f"NM-{rng.randint(100000, 999999)}"


def ticket_id(rng: random.Random) -> str:
    return f"TCK-{rng.randint(10000, 99999)}"


def email(rng: random.Random, full_name: str) -> str:
    first, last = full_name.lower().split()
    local = rng.choice(
        (
            f"{first}.{last}",
            f"{first}{last[0]}",
            f"{first[0]}{last}",
            f"{first}_{last}{rng.randint(1, 99)}",
        )
    )
    return f"{local}@{rng.choice(DOMAINS)}"


def phone(rng: random.Random) -> str:
    return f"555{rng.randint(1000000, 9999999)}"


def letter(rng: random.Random, full_name: str, body: list[str]) -> str:
    """A customer message: an opener, the body sentences, a sign-off."""
    opener = rng.choice(OPENERS)
    closer = f"{rng.choice(CLOSERS)}\n{full_name if rng.random() < 0.7 else full_name.split()[0]}"
    return "\n\n".join(p for p in (opener, " ".join(body), closer) if p)
