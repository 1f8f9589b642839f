import { useEffect } from 'react';
import { useSignIn } from '../auth/sign-in';
import { useEnvironmentName } from './environment';

/** Sets the document title to "{header} - {company}" (spec 000 §2). */
export function useDocumentTitle(header: string): void {
  const { isAuthenticated } = useSignIn();
  const company = useEnvironmentName(isAuthenticated);
  useEffect(() => {
    document.title = `${header} - ${company}`;
  }, [header, company]);
}
