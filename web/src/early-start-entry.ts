import { beginEarlyStart } from './auth/early-start';

// The page's first calls, while the app's scripts download (auth/early-start.ts).
beginEarlyStart();
