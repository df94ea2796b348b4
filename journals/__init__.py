"""journals: find every journal a scholarly publisher lists, extract its metrics, keep them as rows."""
