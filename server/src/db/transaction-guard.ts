import { AsyncLocalStorage } from 'node:async_hooks';
import type { DatabaseConnection, Dialect, Driver, TransactionSettings } from 'kysely';

/** The connection of the transaction open in this async context (one request's chain of calls). */
const openTransaction = new AsyncLocalStorage<{ connection: DatabaseConnection | undefined }>();

export class RootHandleInTransactionError extends Error {
  constructor() {
    super(
      'The root database handle was used while a transaction is open in the same request; pass the transaction (trx) instead.',
    );
  }
}

/**
 * A development guard (on in tests): a query through the root handle while a transaction is open
 * in the same async context throws. Such a query runs on another connection, outside the
 * transaction: it cannot see the transaction's writes, and waiting on a row the transaction holds
 * it deadlocks the pool. Other requests, in their own async contexts, are not affected.
 */
export function guardTransactions(dialect: Dialect): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createDriver: () => new GuardedDriver(dialect.createDriver()),
  };
}

function guarded(connection: DatabaseConnection): DatabaseConnection {
  const check = () => {
    const open = openTransaction.getStore()?.connection;
    if (open && open !== proxy) throw new RootHandleInTransactionError();
  };
  // A proxy, not a wrapper object: the driver calls private (symbol-keyed) methods of its connections.
  const proxy: DatabaseConnection = new Proxy(connection, {
    get(target, property, receiver) {
      if (property === 'executeQuery') {
        return (...args: Parameters<DatabaseConnection['executeQuery']>) => {
          check();
          return target.executeQuery(...args);
        };
      }
      if (property === 'streamQuery') {
        return (...args: Parameters<DatabaseConnection['streamQuery']>) => {
          check();
          return target.streamQuery(...args);
        };
      }
      const value: unknown = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  return proxy;
}

class GuardedDriver implements Driver {
  constructor(private readonly inner: Driver) {
    if (inner.savepoint) this.savepoint = inner.savepoint.bind(inner);
    if (inner.rollbackToSavepoint) this.rollbackToSavepoint = inner.rollbackToSavepoint.bind(inner);
    if (inner.releaseSavepoint) this.releaseSavepoint = inner.releaseSavepoint.bind(inner);
  }

  savepoint?: Driver['savepoint'];
  rollbackToSavepoint?: Driver['rollbackToSavepoint'];
  releaseSavepoint?: Driver['releaseSavepoint'];

  init(...args: Parameters<Driver['init']>) {
    return this.inner.init(...args);
  }

  async acquireConnection(...args: Parameters<Driver['acquireConnection']>) {
    return guarded(await this.inner.acquireConnection(...args));
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    // Synchronous on purpose: enterWith marks the caller's context, in which the transaction's callback runs.
    openTransaction.enterWith({ connection });
    return this.inner.beginTransaction(connection, settings);
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    try {
      await this.inner.commitTransaction(connection);
    } finally {
      this.close(connection);
    }
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    try {
      await this.inner.rollbackTransaction(connection);
    } finally {
      this.close(connection);
    }
  }

  releaseConnection(...args: Parameters<Driver['releaseConnection']>) {
    return this.inner.releaseConnection(...args);
  }

  destroy(...args: Parameters<Driver['destroy']>) {
    return this.inner.destroy(...args);
  }

  private close(connection: DatabaseConnection): void {
    const store = openTransaction.getStore();
    if (store?.connection === connection) store.connection = undefined;
  }
}
