import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { api } from '../api/client';

/** Signs out everywhere (logout revokes every session) and returns to sign in. */
export function SignOutButton({
  className = '',
  label = 'Sign out',
}: {
  className?: string;
  label?: string;
}) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const signOut = async () => {
    await api('POST', '/api/auth/logout').catch(() => undefined);
    queryClient.clear();
    navigate('/login', { replace: true });
  };
  return (
    <button type="button" className={`button ghost ${className}`.trim()} onClick={() => void signOut()}>
      {label}
    </button>
  );
}
