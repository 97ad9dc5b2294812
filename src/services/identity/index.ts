/**
 * Identity: who is calling. Accounts, passwords and sessions, API keys, JWTs and
 * WebSocket tokens, password reset, registration rules, sign-in with identity providers,
 * passkeys, and the onboarding checklist of a new account.
 */
export { createApiKeys, createApiKeyInput } from './api-keys.js';
export {
  changePasswordInput,
  createAuthService,
  type TokenPair,
  loginInput,
  refreshInput,
  olderRegisterInput,
  registerInput,
  updateProfileInput,
} from './auth.js';
export { createAuthenticator, type Credentials } from './authenticator.js';
export { claimInput, createExternalSignIn, linkInput } from './external-sign-in.js';
export { ACCESS_TOKEN_SECONDS, createJwtSigner } from './jwt.js';
export { createOnboarding, patchOnboardingInput } from './onboarding.js';
export { createPasswordReset, forgotPasswordInput, resetPasswordInput } from './password-reset.js';
export { createPasswordHasher } from './passwords.js';
export {
  createPasskeys,
  passkeyLoginBeginInput,
  passkeyLoginFinishInput,
  passkeyRegisterFinishInput,
  passkeyRenameInput,
} from './passkeys.js';
export { configuredProviders } from './providers.js';
export { createRegistrationPolicy } from './registration.js';
export { type ClientInfo, createSessions, REFRESH_TOKEN_MS } from './sessions.js';
export { createWsTokens } from './ws-tokens.js';
export { createWsTickets, isWsTicket, WS_TICKET_SECONDS, type WsTickets } from './ws-tickets.js';
