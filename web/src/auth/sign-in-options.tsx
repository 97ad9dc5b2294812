import { useMutation } from '@tanstack/react-query';
import type { ProviderRedirect } from '../../../src/contract/auth';
import { api } from '../api/client';
import { useProviders } from '../api/queries';
import { FormError } from '../ui/form-error';
import { passkeyErrorText, signInWithPasskey } from './passkey-ceremonies';

/**
 * The other ways in, below the password form: "Continue with …" for each configured
 * identity provider and "Sign in with a passkey" when passkeys are on. A provider's
 * flow starts with a fetch (which sets its browser-binding cookie) and then navigates:
 * the app's CSP allows forms to post only to Folio, redirects included.
 */
export function SignInOptions({ onSignedIn }: { onSignedIn: () => void }) {
  const providers = useProviders();
  const passkey = useMutation({ mutationFn: () => signInWithPasskey(), onSuccess: onSignedIn });
  const provider = useMutation({
    mutationFn: (id: string) => api<ProviderRedirect>('POST', `/api/auth/oidc/${encodeURIComponent(id)}`),
    onSuccess: ({ url }) => window.location.assign(url),
  });
  const list = providers.data?.providers ?? [];
  const passkeys = providers.data?.passkeys ?? false;
  if (!list.length && !passkeys) return null;
  return (
    <div className="sign-in-options">
      <p className="divider">
        <span>or</span>
      </p>
      {list.map((p) => (
        <button
          key={p.id}
          type="button"
          className="button wide"
          disabled={provider.isPending}
          onClick={() => provider.mutate(p.id)}
        >
          Continue with {p.name}
        </button>
      ))}
      {passkeys && (
        <button
          type="button"
          className="button wide"
          disabled={passkey.isPending}
          onClick={() => passkey.mutate()}
        >
          Sign in with a passkey
        </button>
      )}
      <FormError error={provider.error} />
      {passkey.isError && (
        <p className="form-error" role="alert">
          {passkeyErrorText(passkey.error)}
        </p>
      )}
    </div>
  );
}
