/**
 * The services' records checked against the contract's schemas, so a field added, removed
 * or retyped on one side only is a type error. Routes with a zod type provider check their
 * handlers' answers too; this file covers the records of every route, typed or not.
 * Server-only: the web app imports the contract's feature files, never this one.
 */
import type { z } from 'zod';
import type { QualityIssue as ServiceQualityIssue } from '../render/quality.js';
import type { ActivityRecord as ServiceActivity } from '../services/activity.js';
import type { ChangedPage as ServiceChangedPage } from '../services/change-requests/present.js';
import type { ChangeRequestObject } from '../services/change-requests/present.js';
import type { CommentRecord, CommentThread as ServiceThread } from '../services/collab/comments.js';
import type { HistoryEntry } from '../services/history/history.js';
import type { OnboardingState as ServiceOnboarding } from '../services/identity/onboarding.js';
import type { ImportJob as ServiceImportJob } from '../services/imports/jobs.js';
import type { PageObject } from '../services/pages/page-object.js';
import type { SearchResponse as ServiceSearchResponse } from '../services/pages/search.js';
import type { Template } from '../services/pages/template-library.js';
import type { TemplateSummary } from '../services/pages/templates.js';
import type { TreeNode as ServiceTreeNode } from '../services/pages/tree.js';
import type { StoredUpload } from '../services/pages/uploads.js';
import type { NavigationInfo as ServiceNavigation } from '../services/publishing/navigation.js';
import type { PagePreview as ServicePagePreview } from '../services/publishing/preview.js';
import type { NavSourceName } from '../services/publishing/site/nav-sources/index.js';
import type { PublishResult as ServicePublishResult } from '../services/publishing/publish.js';
import type { QualityReport as ServiceQualityReport } from '../services/publishing/quality.js';
import type { VersionPage, VersionRecord } from '../services/publishing/versions.js';
import type { ConflictRecord as ServiceConflict } from '../services/sync/conflicts.js';
import type { SyncResult as ServiceSyncResult } from '../services/sync/engine.js';
import type { DeployKeyRecord } from '../services/sync/remote.js';
import type { SyncStatus as ServiceSyncStatus } from '../services/sync/state.js';
import type { SettingsAnswer } from '../services/workspaces/settings.js';
import type * as activity from './activity.js';
import type * as changeRequests from './change-requests.js';
import type { Expect, Matches } from './check.js';
import type * as comments from './comments.js';
import type * as history from './history.js';
import type * as imports from './imports.js';
import type * as pageNavigation from './page-navigation.js';
import type * as pages from './pages.js';
import type * as publishing from './publishing.js';
import type * as search from './search.js';
import type * as settings from './settings.js';
import type * as sync from './sync.js';
import type * as versions from './versions.js';

export type PageChecks = [
  Expect<Matches<PageObject, pages.Page>>,
  Expect<Matches<ServiceTreeNode, pages.TreeNode>>,
  Expect<Matches<ServicePagePreview, pages.PagePreview>>,
  Expect<Matches<StoredUpload, pages.StoredUploadRecord>>,
  Expect<Matches<TemplateSummary, z.infer<typeof pages.templateSummary>>>,
  Expect<Matches<Template, pages.PageTemplate>>,
  Expect<Matches<ServiceSearchResponse, search.SearchResponse>>,
];

export type CollaborationChecks = [
  Expect<Matches<CommentRecord, comments.Comment>>,
  Expect<Matches<ServiceThread, comments.CommentThread>>,
  Expect<Matches<ServiceActivity, activity.ActivityRecord>>,
  Expect<Matches<HistoryEntry, history.Revision>>,
  Expect<Matches<ChangeRequestObject, changeRequests.ChangeRequest>>,
  Expect<Matches<ServiceChangedPage, changeRequests.ChangedPage>>,
];

export type SyncChecks = [
  Expect<Matches<ServiceSyncStatus, sync.SyncStatus>>,
  Expect<Matches<ServiceConflict, sync.ConflictRecord>>,
  Expect<Matches<ServiceSyncResult, sync.SyncResult>>,
  Expect<Matches<DeployKeyRecord, sync.DeployKey>>,
];

export type PublishingChecks = [
  Expect<Matches<SettingsAnswer, settings.WorkspaceSettings>>,
  Expect<Matches<ServiceNavigation, settings.NavigationInfo>>,
  Expect<Matches<ServiceOnboarding, settings.OnboardingState>>,
  Expect<Matches<VersionRecord, versions.Version>>,
  Expect<Matches<VersionRecord & { pages: VersionPage[] }, versions.VersionDetail>>,
  Expect<Matches<ServicePublishResult, publishing.PublishResult>>,
  Expect<Matches<ServiceQualityIssue, publishing.QualityIssue>>,
  Expect<Matches<ServiceQualityReport, publishing.QualityReport>>,
  Expect<Matches<ServiceImportJob, imports.ImportJob>>,
  Expect<Matches<NavSourceName, pageNavigation.PageNavigation['following']>>,
];
