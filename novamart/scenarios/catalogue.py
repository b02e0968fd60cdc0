"""The world the cases happen in: products and their list prices, people's names, and what
customers say goes wrong with each kind of product.

Facts a policy tests are declared in rules/facts.yaml; this is only what gives them a face.
A category the catalogue does not know yet gets a generic product, priced from the field's
own draw, so an analyst adding a category needs no code.
"""

from __future__ import annotations

FIRST_NAMES = (
    "Maya", "Daniel", "Priya", "Liam", "Sofia", "Noah", "Amara", "Ethan", "Yuki", "Mateo",
    "Chloe", "Omar", "Hannah", "Kwame", "Elena", "Ravi", "Grace", "Lucas", "Fatima", "Jonas",
    "Isla", "Tariq", "Mei", "Oscar", "Zara", "Felix", "Anya", "Diego", "Leah", "Samir",
    "Nora", "Kenji", "Ava", "Malik", "Ines", "Theo",
)  # fmt: skip
LAST_NAMES = (
    "Chen", "Okafor", "Raman", "Murphy", "Rossi", "Kim", "Adeyemi", "Walsh", "Tanaka", "Garcia",
    "Dubois", "Haddad", "Schmidt", "Mensah", "Petrova", "Iyer", "Nguyen", "Silva", "Khan",
    "Berg", "Novak", "Farah", "Lin", "Larsen", "Ahmed", "Weber", "Ivanova", "Lopez", "Cohen",
    "Patel", "Moreau", "Sato", "Brown", "Osei", "Costa", "Meyer",
)  # fmt: skip
HANDLES = (
    "blue", "quiet", "north", "lucky", "amber", "swift", "maple", "cedar", "river", "pixel",
    "comet", "delta", "ember", "frost", "harbor", "ivory", "jade", "koala", "lumen", "mango",
)  # fmt: skip
MAIL_DOMAINS = ("example.net", "example.org", "mail.example.com")

PRODUCTS: dict[str, dict[str, tuple[float, ...]]] = {
    "phone": {
        "NovaPhone 12": (699.99, 799.99, 899.99),
        "Pixelon X": (549.0, 649.0),
        "Aurora S3": (429.5, 499.99),
    },
    "laptop": {
        "NovaBook Pro 14": (1299.99, 1499.99),
        "ZenLite 13": (899.0, 999.0),
        "Titan 16": (1799.0, 2099.0),
    },
    "earbuds": {
        "NovaBuds": (79.99, 89.99),
        "EchoPods Mini": (49.99, 59.99),
        "BassLine Pro": (149.0, 179.0),
    },
    "smartwatch": {
        "NovaWatch 3": (249.99, 299.99),
        "PulseFit": (129.0, 159.0),
        "Orbit Watch": (349.0, 399.0),
    },
}

SYMPTOMS: dict[str, tuple[str, ...]] = {
    "phone": (
        "won't hold a charge",
        "keeps rebooting on its own",
        "has a dead line on the screen",
        "feels slower than it should",
        "gets warm when I use it",
        "drops calls all the time",
    ),
    "laptop": (
        "won't boot at all",
        "has a keyboard that stopped working",
        "shuts down randomly",
        "runs hot and seems slow",
        "makes a faint noise sometimes",
        "has a trackpad that skips",
    ),
    "earbuds": (
        "has no sound in the left earbud",
        "won't pair any more",
        "crackles constantly",
        "sounds a bit quieter than I expected",
        "disconnects now and then",
        "has a case that won't charge them",
    ),
    "smartwatch": (
        "has a flickering screen",
        "won't charge",
        "stopped tracking my heart rate",
        "has a battery that doesn't last as long as advertised",
        "lags sometimes",
        "loses its connection to my phone",
    ),
}
"""What customers report, real or not: the same words whether a technician confirms it."""
GENERIC_SYMPTOMS = ("stopped working properly", "doesn't work the way it should")


def products(category: str) -> dict[str, tuple[float, ...]]:
    """The products of ``category`` and their list prices (empty when unknown: the price
    then comes from the field's draw)."""
    return PRODUCTS.get(category, {})


def product_name(category: str) -> str:
    return f"NovaMart {category.replace('_', ' ')}"


def symptoms(category: str | None) -> tuple[str, ...]:
    return SYMPTOMS.get(category or "", GENERIC_SYMPTOMS)
