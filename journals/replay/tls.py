"""A throw-away TLS server context with a self-signed certificate, for the replay proxy's ``CONNECT`` tunnels.

Scrapy does not verify certificates by default (``DOWNLOAD_VERIFY_CERTIFICATES``), so one certificate serves
every host; it names the saved pages' hosts, so that Scrapy's hostname check (a warning per connection when it
fails) passes for them. The key and certificate are made in memory with ``cryptography``; :mod:`ssl` loads them
only from files, so they pass through a temporary folder removed before this returns.
"""

from __future__ import annotations

import datetime
import ssl
import tempfile
from collections.abc import Iterable
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

COMMON_NAME = "journals replay proxy"
VALID_DAYS = 30


def self_signed_pem(hostnames: Iterable[str] = (), common_name: str = COMMON_NAME) -> tuple[bytes, bytes]:
    """A new P-256 key and a self-signed certificate for it naming ``hostnames`` and ``localhost``, both PEM:
    ``(certificate, key)``."""
    names = [x509.DNSName(host) for host in sorted({*hostnames, "localhost"})]
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common_name)])
    now = datetime.datetime.now(datetime.UTC)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=VALID_DAYS))
        .add_extension(x509.SubjectAlternativeName(names), critical=False)
        .sign(key, hashes.SHA256())
    )
    key_pem = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    return certificate.public_bytes(serialization.Encoding.PEM), key_pem


def server_context(hostnames: Iterable[str] = ()) -> ssl.SSLContext:
    """A TLS server context holding a fresh self-signed certificate for ``hostnames``."""
    certificate_pem, key_pem = self_signed_pem(hostnames)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    with tempfile.TemporaryDirectory(prefix="journals-replay-") as folder:
        certificate_file, key_file = Path(folder, "cert.pem"), Path(folder, "key.pem")
        certificate_file.write_bytes(certificate_pem)
        key_file.touch(mode=0o600)
        key_file.write_bytes(key_pem)
        context.load_cert_chain(certificate_file, key_file)
    return context
