"""The shared pieces of the tablet site, written once for every app's tablet pages.

- ``floor/base.html`` (``casino_backoffice/core/templates``): the page every tablet page extends, with
  the bar, the messages and a way back home from every page but home.
- ``tiles``: each app declares the tiles of its pages on the home page (``<app>/floor/tiles.py``);
  the tablet site's root (``casino_backoffice/floor_urls.py``) collects them.
- ``forms``: the PIN signature field, money fields with the number pad, and the card picker.
- ``pages``: the page refusing a person an action they may not take (``refused_page``) and the words
  for a PIN refused by its shape (``pin_typo``), as every app's tablet pages answer them.

The number pad and the card picker are static scripts (``floor/number_pad.js``,
``floor/card_picker.js``) that their widgets declare as form media: no page carries an inline script,
as the Content-Security-Policy requires.
"""
