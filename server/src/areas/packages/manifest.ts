import { defineArea } from '../../http/area.js';
import { packagesAccess } from './access-policy.js';
import { seedDemoPackages, storeDemoPackageFiles } from './demo.js';
import { packageRoutes } from './routes.js';

export const packagesArea = defineArea({
  name: 'packages',
  routes: packageRoutes,
  access: packagesAccess,
  // Operations and versions are recorded on their package, so its history tells the whole story.
  audited: { package: 'Packages' },
  demoSeed: (trx) => seedDemoPackages(trx),
  demoFiles: storeDemoPackageFiles,
});
