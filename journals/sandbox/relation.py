"""The hidden relation: every journal of the sandbox world with its true attribute values.

Journals are drawn from ``random.Random`` seeded by ``(seed, index)``, so any journal can be rebuilt alone and a
world of 100,000 journals costs only its titles until pages are asked for.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cached_property

from journals.domain.issn import make_issn
from journals.domain.sites import site_names

FIELDS = (
    "Acoustics",
    "Agronomy",
    "Algebra",
    "Anatomy",
    "Anthropology",
    "Archaeology",
    "Astronomy",
    "Bioethics",
    "Biochemistry",
    "Biophysics",
    "Botany",
    "Cardiology",
    "Catalysis",
    "Chemistry",
    "Criminology",
    "Cryptography",
    "Dermatology",
    "Ecology",
    "Econometrics",
    "Economics",
    "Education",
    "Endocrinology",
    "Entomology",
    "Epidemiology",
    "Ethics",
    "Finance",
    "Forestry",
    "Genetics",
    "Geography",
    "Geology",
    "Geophysics",
    "Gerontology",
    "Haematology",
    "Hepatology",
    "Histology",
    "Hydrology",
    "Immunology",
    "Informatics",
    "Jurisprudence",
    "Kinesiology",
    "Limnology",
    "Linguistics",
    "Logic",
    "Mathematics",
    "Mechanics",
    "Metallurgy",
    "Meteorology",
    "Microbiology",
    "Mineralogy",
    "Nanotechnology",
    "Nephrology",
    "Neuroscience",
    "Nursing",
    "Nutrition",
    "Obstetrics",
    "Oceanography",
    "Oncology",
    "Ophthalmology",
    "Optics",
    "Ornithology",
    "Paediatrics",
    "Palaeontology",
    "Pathology",
    "Pharmacology",
    "Philosophy",
    "Photonics",
    "Physics",
    "Physiology",
    "Psychiatry",
    "Psychology",
    "Quantum Computing",
    "Radiology",
    "Robotics",
    "Rheumatology",
    "Seismology",
    "Sociology",
    "Statistics",
    "Surgery",
    "Thermodynamics",
    "Toxicology",
    "Topology",
    "Urology",
    "Virology",
    "Volcanology",
    "Welding",
    "Xenobiology",
    "Yeast Research",
    "Zoology",
)


def drawn_fields(purpose: str, seed: int, site: str, count: int = 12) -> list[str]:
    """``count`` fields of :data:`FIELDS`, sorted: a fixed draw per ``purpose`` (a menu's topics, its subjects),
    seed and site."""
    return sorted(random.Random(f"{purpose}:{seed}:{site}").sample(FIELDS, count))


ADJECTIVES = (
    "Advanced",
    "Applied",
    "Behavioural",
    "Clinical",
    "Comparative",
    "Computational",
    "Developmental",
    "Environmental",
    "Experimental",
    "Global",
    "Human",
    "Industrial",
    "Integrative",
    "Investigative",
    "Marine",
    "Medical",
    "Molecular",
    "Nordic",
    "Organic",
    "Pacific",
    "Quantitative",
    "Regional",
    "Structural",
    "Theoretical",
    "Tropical",
    "Urban",
    "Veterinary",
    "Visual",
    "Western",
    "Zonal",
)
PATTERNS = (
    "Journal of {a} {f}",
    "{a} {f}",
    "{f} Letters",
    "{a} {f} Reviews",
    "Annals of {a} {f}",
    "International Journal of {a} {f}",
    "Advances in {f} and {g}",
    "{f} Research",
    "Frontiers of {a} {f}",
    "Current Opinion in {f}",
    "{a} {f} Quarterly",
    "Zeitschrift für {f}",
    "Physical Review {letter}",
    "{digit}D {f}",
    "{f} & {g}",
    "The {a} Journal of {f}",
    "{a} {f} and {g}",
    "Open {f}",
)
FIRST_NAMES = (
    "Ada",
    "Bernard",
    "Chen",
    "Dolores",
    "Emeka",
    "Fatima",
    "Gustav",
    "Hana",
    "Ignacio",
    "Jun",
    "Kirsten",
    "Lars",
    "Maria",
    "Nikhil",
    "Olga",
    "Pierre",
    "Qiu",
    "Rosa",
    "Sven",
    "Tomasz",
    "Uma",
    "Vera",
    "Wei",
    "Ximena",
    "Yusuf",
    "Zofia",
)
LAST_NAMES = (
    "Andersen",
    "Baptiste",
    "Costa",
    "Dubois",
    "Eriksen",
    "Fischer",
    "García",
    "Hoffmann",
    "Ivanova",
    "Jensen",
    "Kowalski",
    "Li",
    "Müller",
    "Nakamura",
    "O'Brien",
    "Petrov",
    "Quinn",
    "Rossi",
    "Schmidt",
    "Tanaka",
    "Urquhart",
    "Van den Berg",
    "Wang",
    "Xu",
    "Yamamoto",
    "Zhang",
)
PUBLISHERS = site_names("publisher")
"""The publishers of the hidden relation's journals: the registry's publishers."""
PUBLISHER_WEIGHTS = {"elsevier": 30, "wiley": 22, "nature": 10, "bmj": 8, "oxford": 14, "springer": 16}
"""Each publisher's weight in the draw of a journal's publisher."""
METRIC_YEAR = 2024
EDITION_CHANGE_SHARE = 0.1
"""The share of journals whose metrics change from one edition of the world to the next."""


@dataclass(frozen=True)
class SandboxJournal:
    """One journal of the hidden relation, with its true current values."""

    index: int
    title: str
    publisher: str
    issn: str
    eissn: str
    impact_factor: float
    five_year_impact_factor: float
    citescore: float
    sjr: float
    snip: float
    editor_in_chief: str
    subject: str
    open_access: bool
    h_index: int
    acceptance_rate: int
    apc: int
    previous_impact_factor: float
    """Last year's impact factor: what a stale source still shows."""


class JournalRelation:
    """The hidden relation of ``size`` journals drawn from ``seed``.

    ``edition`` moves the world on: from edition 2, a share (:data:`EDITION_CHANGE_SHARE`) of the journals
    publish new metrics, as a re-crawl a year later would find; titles, ISSNs and URLs stay.
    """

    def __init__(self, seed: int = 1, size: int = 2000, edition: int = 1) -> None:
        self.seed = seed
        self.size = size
        self.edition = edition

    @cached_property
    def titles(self) -> list[str]:
        """Every journal's title, unique, indexed like the journals."""
        rng = random.Random(f"titles:{self.seed}")
        seen: set[str] = set()
        titles: list[str] = []
        for _ in range(self.size):
            title = _draw_title(rng)
            attempt = 1
            while title.casefold() in seen:
                attempt += 1
                title = _draw_title(rng) if attempt < 20 else f"{_draw_title(rng)} Series {attempt}"
            seen.add(title.casefold())
            titles.append(title)
        return titles

    def __len__(self) -> int:
        return self.size

    def journal(self, index: int) -> SandboxJournal:
        """The journal at ``index``, rebuilt from the seed alone."""
        rng = random.Random(f"journal:{self.seed}:{index}")
        impact_factor = round(rng.lognormvariate(1.0, 0.7), 3)
        if self.edition > 1:
            update = random.Random(f"edition:{self.seed}:{self.edition}:{index}")
            if update.random() < EDITION_CHANGE_SHARE:
                impact_factor = round(impact_factor * update.uniform(0.85, 1.25), 3)
        return SandboxJournal(
            index=index,
            title=self.titles[index],
            publisher=rng.choices(PUBLISHERS, [PUBLISHER_WEIGHTS[p] for p in PUBLISHERS])[0],
            issn=make_issn((index * 7919 + self.seed * 104_729) % 5_000_000),
            eissn=make_issn(5_000_000 + (index * 6301 + self.seed * 1_299_709) % 5_000_000),
            impact_factor=impact_factor,
            five_year_impact_factor=round(impact_factor * rng.uniform(0.9, 1.35), 3),
            citescore=round(impact_factor * rng.uniform(1.1, 1.8), 1),
            sjr=round(impact_factor * rng.uniform(0.15, 0.45), 3),
            snip=round(rng.uniform(0.3, 3.5), 3),
            editor_in_chief=f"{rng.choice(FIRST_NAMES)} {rng.choice(LAST_NAMES)}",
            subject=rng.choice(FIELDS),
            open_access=rng.random() < 0.35,
            h_index=rng.randint(5, 400),
            acceptance_rate=rng.randint(8, 65),
            apc=rng.choice((0, 1500, 2290, 2990, 3450, 4100)),
            previous_impact_factor=round(impact_factor * rng.uniform(0.8, 1.15), 3),
        )

    def __iter__(self):
        return (self.journal(i) for i in range(self.size))


def _draw_title(rng: random.Random) -> str:
    f, g = rng.sample(FIELDS, 2)
    return rng.choice(PATTERNS).format(
        a=rng.choice(ADJECTIVES), f=f, g=g, letter=rng.choice("ABCDEX"), digit=rng.randint(2, 4)
    )
