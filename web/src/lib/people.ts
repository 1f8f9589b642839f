import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { Person, PersonName } from '@cfs/contracts/shell';
import { PERSON_NAMES_MAX } from '@cfs/contracts/values/shell';
import { apiGet } from './api-client';

/** The directory searched: a person (approvers, a service manager), or people and groups (an assignee). */
export type PeopleDirectory = 'people' | 'peopleandgroups';

/** `/api/people` or `/api/peopleandgroups?searchTerm=` (spec 001 §7; the caller debounces 400 ms). */
export function usePeopleSearch(directory: PeopleDirectory, searchTerm: string) {
  const term = searchTerm.trim();
  return useQuery({
    queryKey: ['people', directory, term],
    queryFn: ({ signal }) => apiGet<Person[]>(`/api/${directory}`, { searchTerm: term }, { signal }),
    enabled: term.length > 0,
    staleTime: 60_000,
    placeholderData: keepPreviousData,
  });
}

/**
 * A person as people see them (spec 000 §3, 001 §3 Lookups): "displayName (mail)"; a user with no
 * mail by their name; one the directory does not know (a removed user, 'system') as stored.
 */
export function formatPerson(person: Pick<PersonName, 'displayName' | 'mail'> | null | undefined, stored = ''): string {
  if (!person?.displayName) return person?.mail ?? stored;
  return person.mail ? `${person.displayName} (${person.mail})` : person.displayName;
}

/*
 * Why a lookup on the web and not a join in each area's list: records keep a person as a user
 * name (created_by, modified_by) or a mail (assignee), in six areas' tables and answers. One
 * cached lookup names them all, where joins would widen six queries, presenters and contracts.
 * The keys a render asks for (a grid page's cells) go out as one request, never one a row; the
 * cache then holds each person for every screen.
 */
const waiting = new Map<string, ((name: PersonName | null) => void)[]>();

function flushNames(): void {
  const batch = [...waiting.entries()];
  waiting.clear();
  for (let start = 0; start < batch.length; start += PERSON_NAMES_MAX) {
    const chunk = batch.slice(start, start + PERSON_NAMES_MAX);
    const answer = (names: PersonName[]) => {
      const byKey = new Map(names.map((name) => [name.key, name]));
      for (const [key, resolvers] of chunk) for (const resolve of resolvers) resolve(byKey.get(key) ?? null);
    };
    // Without an answer the stored value is shown: a name is no reason for an error toast.
    apiGet<PersonName[]>('/api/people/names', { keys: chunk.map(([key]) => key).join(',') }).then(answer, () =>
      answer([]),
    );
  }
}

function personNamed(key: string): Promise<PersonName | null> {
  return new Promise((resolve) => {
    if (waiting.size === 0) setTimeout(flushNames, 0);
    waiting.set(key, [...(waiting.get(key) ?? []), resolve]);
  });
}

/**
 * How a stored user name or mail is shown, "displayName (mail)" once the directory answers (the
 * stored value until then).
 *
 * @example
 *   const createdBy = usePersonLabel(unit.createdBy); // 'operator' → 'Olivia Operator (operator@cfs.example)'
 */
export function usePersonLabel(stored: string | null | undefined): string {
  const key = stored?.trim().toLowerCase() ?? '';
  const named = useQuery({
    queryKey: ['person-name', key],
    queryFn: () => personNamed(key),
    enabled: key !== '',
    staleTime: 5 * 60_000,
  });
  return stored ? formatPerson(named.data, stored) : '';
}
