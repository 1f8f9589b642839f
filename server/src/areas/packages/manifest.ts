import { defineArea } from '../../area.js';
import { seedDemoPackages, storeDemoPackageFiles } from './demo.js';
import { packageRoutes } from './routes.js';

export const packagesArea = defineArea({
  name: 'packages',
  routes: packageRoutes,
  apiTags: { Packages: 'The package catalogue: packages, their SemVer versions and the operations they bring.' },
  // Operations and versions are recorded on their package, so its history tells the whole story.
  audited: { package: 'Packages' },
  demoSeed: (trx) => seedDemoPackages(trx),
  demoFiles: storeDemoPackageFiles,
});
