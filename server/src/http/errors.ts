/** Errors a data function may throw; the error handler turns each into its HTTP answer. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly errors?: Record<string, string[]>,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export class NotFoundError extends HttpError {
  constructor(what = 'The requested item') {
    super(404, `${what} was not found.`);
  }
}

/** The row, or 404 "{what} was not found.": after a scoped read, another tenant's row is simply not there. */
export function orNotFound<T>(row: T | undefined, what: string): T {
  if (row === undefined) throw new NotFoundError(what);
  return row;
}

export class BadRequestError extends HttpError {
  constructor(message: string, errors?: Record<string, string[]>) {
    super(400, message, errors);
  }
}

export class ConflictError extends HttpError {
  constructor(message: string) {
    super(409, message);
  }
}
