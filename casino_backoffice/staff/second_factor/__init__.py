"""The optional second factor at sign-in: a time-based one-time code (TOTP, RFC 6238) from an
authenticator app, on top of the password (OWASP ASVS 2.8).

- Offered to the roles of ``Action.SECOND_FACTOR_USE`` (shift supervisors, poker room managers, finance,
  administrators); asked at sign-in, on the tablet and in the admin alike, of every person who turned it
  on; required of the roles ``STAFF_SECOND_FACTOR_REQUIRED_ROLES`` names (none by default).
- The device and its code are django-otp's ``TOTPDevice`` (``services``): six digits, 30-second steps,
  one step of clock tolerance either way, and a code accepted once (a step at or before the last one
  accepted is refused, so a code seen over a shoulder cannot be replayed).
- Wrong codes count toward the same sign-in lockout as wrong passwords (``staff.signin``), recorded as
  ``SignInAttempt`` with their reason.
- Pages: the sign-in's second step (``views``, for both faces), the tablet's enrolment page
  (``staff.floor.second_factor``), the admin's reset (``staff.admin``).
- API tokens are unchanged: they are issued to table systems, not people, and never ask for a code.
"""
