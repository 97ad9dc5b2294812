/**
 * Collaboration: members and their roles, invitations, share links, comments, and the
 * plan limits on seats that the Cloud edition replaces.
 */
export { createComments, createCommentInput, listCommentsInput, updateCommentInput } from './comments.js';
export { acceptInvitationInput, createInvitationInput, createInvitations } from './invitations.js';
export { changeRoleInput, createMembers, listInput, offsetListInput } from './members.js';
export { createPeople, type PersonRecord } from './people.js';
export { communityPlanLimits, type PlanLimits } from './plan-limits.js';
export { createShareLinkInput, createShareLinks } from './share-links.js';
