export { authModule } from './module.ts';
export { AuthConfig } from './config.ts';
export { changeAdminRole, listAdmins, type AdminChange, type AdminRoleResult } from './features/accounts/index.ts';
