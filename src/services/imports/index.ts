/**
 * Imports: turning a Notion or Confluence export (or a folder of another docs tool's
 * pages) into pages and uploads of a workspace, as one commit, with a report.
 */
export { MAX_IMPORT_BYTES, readFolderExport, readZipExport, type ExportFiles } from './archive.js';
export { detectFormat } from './detect-format.js';
export { createImporter, importOptions, type ImportOptions, type Importer } from './importer.js';
export { createImportJobs, type ImportJob } from './jobs.js';
export { IMPORT_FORMATS, type ImportFormat, type ImportReport } from './plan.js';
