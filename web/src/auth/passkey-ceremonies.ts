import {
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  startAuthentication,
  startRegistration,
  WebAuthnError,
} from '@simplewebauthn/browser';
import { api } from '../api/client';
import { errorText } from '../ui/form-error';

/** What went wrong in a passkey ceremony, in words: the server's reason or the browser's. */
export function passkeyErrorText(error: unknown): string {
  if (error instanceof WebAuthnError && error.code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED')
    return 'This device already holds a passkey for your account.';
  if (error instanceof WebAuthnError || (error instanceof Error && error.name === 'NotAllowedError'))
    return 'The passkey request was cancelled or timed out.';
  return errorText(error);
}

/**
 * Signs in with a passkey: the server's challenge, the browser's authenticator, the
 * server's check. With no email the authenticator offers the passkeys it holds for Folio.
 */
export async function signInWithPasskey(email?: string): Promise<void> {
  const optionsJSON = await api<PublicKeyCredentialRequestOptionsJSON>(
    'POST',
    '/api/auth/webauthn/login/begin',
    email ? { email } : {},
  );
  const response = await startAuthentication({ optionsJSON });
  await api('POST', '/api/auth/webauthn/login/finish', { response });
}

/** Registers a passkey on this device for the signed-in user, named `name`. */
export async function registerPasskey(name: string | undefined): Promise<void> {
  const optionsJSON = await api<PublicKeyCredentialCreationOptionsJSON>(
    'POST',
    '/api/auth/webauthn/register/begin',
    {},
  );
  const response = await startRegistration({ optionsJSON });
  await api('POST', '/api/auth/webauthn/register/finish', { response, ...(name ? { name } : {}) });
}
