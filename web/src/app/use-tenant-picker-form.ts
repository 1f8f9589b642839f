import { useMemo, useState } from 'react';
import { useWatch } from 'react-hook-form';
import { tenantSubscriptionContextSchema } from '@cfs/contracts/shell';
import { useCurrentUser } from '../auth/session-data';
import { useSchemaForm } from '../components/form-resolver';
import { isReportedByClient } from '../lib/api-client';
import { useSubscriptionsLookup, useTenantsLookup } from '../lib/lookups';
import { useToast } from '../lib/toast';
import { useSaveTenantContext } from './shell-api';
import { replaceTenantInPath } from './tenant-path';

/**
 * The tenant > subscription form (spec 000 §5): both required, subscriptions filtered by the
 * chosen tenant and cleared when it changes. Saving posts the context and reloads the page
 * at the current address with the new tenant in the path (spec 000 §4).
 */
export function useTenantPickerForm() {
  const user = useCurrentUser();
  const tenants = useTenantsLookup();
  const subscriptions = useSubscriptionsLookup();
  const save = useSaveTenantContext();
  const toast = useToast();
  // Set only once the context is saved: the page is reloading, so Save stays disabled. A failed
  // save leaves it false (react-hook-form still counts that submit as successful: it was caught).
  const [navigating, setNavigating] = useState(false);
  const form = useSchemaForm(
    tenantSubscriptionContextSchema,
    { tenant: user.tenantId ?? '', subscriptionId: user.subscriptionId ?? '' },
    { mode: 'onTouched' },
  );
  const tenant = useWatch({ control: form.control, name: 'tenant' });
  const tenantSubscriptions = useMemo(
    () => (subscriptions.data ?? []).filter((subscription) => subscription.tenantId === tenant),
    [subscriptions.data, tenant],
  );

  const changeTenant = (next: string) => {
    form.setValue('tenant', next, { shouldDirty: true, shouldTouch: true, shouldValidate: true });
    form.setValue('subscriptionId', '', { shouldDirty: true });
  };

  const submit = form.handleSubmit(async (context) => {
    try {
      await save.mutateAsync(context);
    } catch (error) {
      if (!isReportedByClient(error))
        toast.error(error instanceof Error ? error.message : 'The tenant could not be changed.');
      return;
    }
    setNavigating(true);
    const { pathname, search, hash } = window.location;
    window.location.assign(replaceTenantInPath(pathname, search, hash, context.tenant));
  });

  return {
    form,
    tenants: tenants.data ?? [],
    subscriptions: tenantSubscriptions,
    loading: tenants.isPending || subscriptions.isPending,
    saving: save.isPending || navigating,
    changeTenant,
    submit,
  };
}
