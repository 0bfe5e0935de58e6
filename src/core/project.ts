/** What marks the root of a project: a repository, or a Python or Node package manifest. */
export const PROJECT_MARKERS = ['.git', 'pyproject.toml', 'setup.py', 'setup.cfg', 'package.json'];
