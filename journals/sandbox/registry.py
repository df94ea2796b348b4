"""Each sandbox site's templates by site name: the generated publishers, the held-out site, the real web's shapes and
the scripted sites.

The registry lives apart from :mod:`journals.sandbox.site_templates` because the held-out and real-web templates
subclass that module's :class:`~journals.sandbox.site_templates.SiteTemplates`: listing them there made the modules
import each other.
"""

from __future__ import annotations

from journals.sandbox.heldout import HeldoutTemplates
from journals.sandbox.realsites import CampusPressTemplates, OpenAccessTemplates, SocietyPressTemplates
from journals.sandbox.scripted import ScriptAppTemplates, ScriptListTemplates
from journals.sandbox.site_templates import (
    BMJTemplates,
    ElsevierTemplates,
    MetricsDBTemplates,
    NatureTemplates,
    OxfordTemplates,
    ScimagoTemplates,
    SiteTemplates,
    SpringerTemplates,
    WileyTemplates,
)
from journals.sandbox.unseen_lists import AreasTemplates, BySubjectTemplates, RowLinksTemplates, SelectGoTemplates
from journals.sandbox.unseen_pages import MastheadTemplates, ProseTemplates, SidebarTemplates, YearTableTemplates
from journals.sandbox.unseen_scripts import DeferredTemplates, LoadMoreTemplates, NextDataTemplates, SpaTemplates
from journals.sandbox.unseen_scripts2 import (
    AccordionTemplates,
    HashbangTemplates,
    InfiniteTemplates,
    SkeletonTemplates,
    TabsTemplates,
)

TEMPLATES: dict[str, type[SiteTemplates]] = {
    "elsevier": ElsevierTemplates,
    "wiley": WileyTemplates,
    "nature": NatureTemplates,
    "bmj": BMJTemplates,
    "oxford": OxfordTemplates,
    "springer": SpringerTemplates,
    "scimago": ScimagoTemplates,
    "metricsdb": MetricsDBTemplates,
    "heldout": HeldoutTemplates,
    "openaccess": OpenAccessTemplates,
    "societypress": SocietyPressTemplates,
    "campuspress": CampusPressTemplates,
    "scriptlist": ScriptListTemplates,
    "scriptapp": ScriptAppTemplates,
    "sidebar": SidebarTemplates,
    "prose": ProseTemplates,
    "yeartable": YearTableTemplates,
    "masthead": MastheadTemplates,
    "rowlinks": RowLinksTemplates,
    "selectgo": SelectGoTemplates,
    "bysubject": BySubjectTemplates,
    "areas": AreasTemplates,
    "spa": SpaTemplates,
    "loadmore": LoadMoreTemplates,
    "nextdata": NextDataTemplates,
    "deferred": DeferredTemplates,
    "infinite": InfiniteTemplates,
    "tabs": TabsTemplates,
    "hashbang": HashbangTemplates,
    "accordion": AccordionTemplates,
    "skeleton": SkeletonTemplates,
}
"""The template class of every sandbox site, by the site's name in :data:`journals.sandbox.sources.SITE_SPECS`."""
