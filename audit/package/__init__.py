"""A gaming day's package for the regulator (issue 29, item 4): one ZIP per room and gaming day with the
official record, the count sheets, the transports and verifications, the variances and their
explanations, the Bad Beat claims, the High Hand periods and awards, the irregularities, and
``manifest.json`` listing each file's SHA-256 and size (``package_build``, ``package_verify``)."""
