"""Sphinx extension: the repository, issues and launch (Binder, Colab) buttons exist only when the
book's repository is configured.

``_config.yml``'s ``repository.url`` is the one place the repository is set (empty by default). With
it empty, the site builds no link to a repository that does not exist: the ``html.use_*_button``
keys stay off and ``launch_buttons`` names no service. With it set, this extension turns on the
repository and issues buttons and adds Binder (which installs ``binder/requirements.txt``: the
pinned requirements and ``mlnotes`` itself) and Colab (whose notebook installs ``mlnotes`` in its
launch cell, written by ``tools/macros.py``).

Registered in ``_config.yml`` as ``sphinx: local_extensions: {repository_links: tools/}``.
"""

from __future__ import annotations

BINDER_URL = "https://mybinder.org"
COLAB_URL = "https://colab.research.google.com"
REPOSITORY_BUTTONS = ("use_repository_button", "use_issues_button")
LAUNCH_SERVICES = {"binderhub_url": BINDER_URL, "colab_url": COLAB_URL}


def link_options(theme_options: dict) -> dict:
    """The theme options with the repository and launch buttons on exactly when ``repository_url`` is set.

    Parameters
    ----------
    theme_options : dict
        ``html_theme_options`` as Jupyter Book builds them from ``_config.yml``.

    Returns
    -------
    dict
        A new mapping; the input is not modified.
    """
    if not isinstance(theme_options, dict):
        raise TypeError(f"theme_options must be a dict, got {type(theme_options).__name__}")
    options = dict(theme_options)
    url = (options.get("repository_url") or "").strip()
    launch = {k: v for k, v in (options.get("launch_buttons") or {}).items() if k not in LAUNCH_SERVICES}
    if url:
        options["repository_url"] = url.rstrip("/")
        options.update({key: True for key in REPOSITORY_BUTTONS})
        launch.update(LAUNCH_SERVICES)
    else:
        options["repository_url"] = ""
        options.update({key: False for key in REPOSITORY_BUTTONS + ("use_edit_page_button", "use_source_button")})
    options["launch_buttons"] = launch
    return options


def _configure(app, config) -> None:
    config.html_theme_options = link_options(config.html_theme_options or {})


def setup(app):
    app.connect("config-inited", _configure)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
