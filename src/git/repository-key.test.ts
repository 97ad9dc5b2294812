import { describe, expect, it } from 'vitest';
import { payloadRepositoryUrls, repositoryKey } from './repository-key.js';

describe('repositoryKey', () => {
  it('reduces every form of one hosted repository to the same key', () => {
    const forms = [
      'https://github.com/Acme/Docs.git',
      'https://user:token@GitHub.com/acme/docs/',
      'ssh://git@github.com:22/acme/docs.git',
      'git@github.com:acme/docs.git',
      'http://github.com/acme/docs',
    ];
    expect(new Set(forms.map(repositoryKey))).toEqual(new Set(['github.com/acme/docs']));
  });

  it('keeps local repositories apart from hosted ones and matches file URLs with paths', () => {
    expect(repositoryKey('file:///srv/git/Docs.git')).toBe('/srv/git/Docs');
    expect(repositoryKey('/srv/git/Docs.git')).toBe('/srv/git/Docs');
    expect(repositoryKey('https://example.com/srv/git/docs.git')).not.toBe(
      repositoryKey('/srv/git/docs.git'),
    );
    expect(repositoryKey('')).toBeNull();
    expect(repositoryKey('https://github.com/')).toBeNull();
  });

  it('reads GitHub, GitLab and Gitea payloads', () => {
    expect(payloadRepositoryUrls({ repository: { clone_url: 'a', ssh_url: 'b', name: 'x' } })).toEqual([
      'a',
      'b',
    ]);
    expect(payloadRepositoryUrls({ project: { git_http_url: 'c', web_url: 'd' } })).toEqual(['c', 'd']);
    expect(payloadRepositoryUrls('nope')).toEqual([]);
  });
});
