/**
 * A port through which a folder writes a table another folder owns (db/table-owners.ts) when it may
 * not import the owner (an engine, or another area): the owner provides the implementation and the
 * composition root (server/src/areas.ts) hands it over, so the app, the worker and the tests that
 * load the areas all write through the owner.
 *
 * @example
 *   const port = ownerPort<RuleWriter>('rule writer');
 *   export const registerRuleWriter = port.provide; // server/src/areas.ts: registerRuleWriter(ruleWriter)
 *   export const ruleWriter = port.get;             // the writer: await ruleWriter().removeAction(trx, …)
 */
export function ownerPort<T>(name: string): { provide: (implementation: T) => void; get: () => T } {
  let provided: T | undefined;
  return {
    provide: (implementation) => {
      provided = implementation;
    },
    get: () => {
      if (provided === undefined) throw new Error(`No ${name} is registered (server/src/areas.ts registers it).`);
      return provided;
    },
  };
}
