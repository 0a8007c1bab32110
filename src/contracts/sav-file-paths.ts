/**
 * Where a SAV's stored file is downloaded, one path per API group (each route answers in its group's
 * envelope): the REST routes serve them, the REST and GraphQL answers link to them.
 */
export const savFilePaths = {
  core: (savId: number, fileId: string): string => `/api/sale-sav/${savId}/files/${fileId}`,
  chatbot: (savId: number, fileId: string): string => `/api/sav/${savId}/files/${fileId}`,
};
