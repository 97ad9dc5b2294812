import pkg from '../package.json' with { type: 'json' };

/** The package version; the production build inlines package.json's. */
export const VERSION: string = pkg.version;
