import { describe, expect, it } from 'vitest';
import { fillEditUrl, isEditUrlTemplate, suggestEditUrl } from './edit-url.js';

describe('edit URL', () => {
  it('proposes the edit page of GitHub, GitLab, Gitea and Forgejo remotes in their URL forms', () => {
    expect(suggestEditUrl('https://github.com/acme/docs.git', 'main')).toBe(
      'https://github.com/acme/docs/edit/main/{path}',
    );
    expect(suggestEditUrl('git@github.com:acme/docs.git', 'main')).toBe(
      'https://github.com/acme/docs/edit/main/{path}',
    );
    expect(suggestEditUrl('ssh://git@gitlab.com/group/sub/docs.git', 'trunk')).toBe(
      'https://gitlab.com/group/sub/docs/-/edit/trunk/{path}',
    );
    expect(suggestEditUrl('https://user:secret@gitea.example.com/acme/docs', 'main')).toBe(
      'https://gitea.example.com/acme/docs/_edit/main/{path}',
    );
    expect(suggestEditUrl('https://codeberg.org/acme/docs.git', 'release/2')).toBe(
      'https://codeberg.org/acme/docs/_edit/release/2/{path}',
    );
    expect(suggestEditUrl('https://git.example.com/acme/docs.git', 'main')).toBeNull();
    expect(suggestEditUrl('/srv/git/docs.git', 'main')).toBeNull();
    expect(suggestEditUrl(null, 'main')).toBeNull();
  });

  it('takes http(s) templates with {path} only, and fills in the encoded path', () => {
    expect(isEditUrlTemplate('https://github.com/acme/docs/edit/main/{path}')).toBe(true);
    expect(isEditUrlTemplate('https://github.com/acme/docs/edit/main/')).toBe(false);
    expect(isEditUrlTemplate('javascript:alert(1)//{path}')).toBe(false);
    expect(fillEditUrl('https://x.test/e/{path}', 'guides/set up.md')).toBe(
      'https://x.test/e/guides/set%20up.md',
    );
  });
});
