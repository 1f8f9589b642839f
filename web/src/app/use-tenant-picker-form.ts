import { useMemo } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { tenantSubscriptionContextSchema, type TenantSubscriptionContext } from '@cfs/contracts/shell';
import { useCurrentUser } from '../auth/session-data';
import { ApiError } from '../lib/api-client';
import { useToast } from '../lib/toast';
import { useSaveTenantContext, useSubscriptionsLookup, useTenantsLookup } from './lookups';
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
  const form = useForm<TenantSubscriptionContext>({
    resolver: zodResolver(tenantSubscriptionContextSchema),
    defaultValues: { tenant: user.tenantId ?? '', subscriptionId: user.subscriptionId ?? '' },
    mode: 'onTouched',
  });
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
      // 401 and 403 are answered by the API client (login, access toast).
      if (!(error instanceof ApiError && (error.status === 401 || error.status === 403))) {
        toast.error(error instanceof Error ? error.message : 'The tenant could not be changed.');
      }
      return;
    }
    const { pathname, search, hash } = window.location;
    window.location.assign(replaceTenantInPath(pathname, search, hash, context.tenant));
  });

  return {
    form,
    tenants: tenants.data ?? [],
    subscriptions: tenantSubscriptions,
    loading: tenants.isPending || subscriptions.isPending,
    saving: save.isPending || form.formState.isSubmitSuccessful,
    changeTenant,
    submit,
  };
}
