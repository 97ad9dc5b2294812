import { Link } from 'react-router';
import { usePlans } from './billing-api';

/** The account screen's way in to billing: shown only when this server bills (the Cloud edition). */
export function BillingLink() {
  const plans = usePlans();
  if (!plans.data) return null;
  return (
    <Link to="/settings/billing" className="button ghost">
      Billing
    </Link>
  );
}
