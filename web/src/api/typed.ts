/**
 * Types of the server's calls, taken from the generated `schema.d.ts` (`npm run api:generate`).
 * Paths are written without the `/web/unicornpro/v1` base, as `apiClient.request` expects them.
 */
import { API_BASE_PATH, apiClient, type ApiClient, type ApiRequest } from './client';
import type { paths } from './schema';

type Base = typeof API_BASE_PATH;
type FullPath = keyof paths;

/** A server path relative to the API base: '/health', '/accounts/check', ... */
export type ApiPath = FullPath extends infer P ? (P extends `${Base}${infer Rest}` ? Rest : never) : never;

type Operations<P extends ApiPath> = paths[`${Base}${P}` & FullPath];
type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** Paths that answer the given method. */
export type PathsWith<M extends Method> = {
  [P in ApiPath]: Operations<P>[M & keyof Operations<P>] extends undefined | never ? never : P;
}[ApiPath];

type Operation<P extends ApiPath, M extends Method> = NonNullable<Operations<P>[M & keyof Operations<P>]>;

type JsonOf<R> = R extends { content: { 'application/json': infer Body } } ? Body : undefined;

/** Body of the 200 (or 201) answer of a call. */
export type ResponseOf<P extends ApiPath, M extends Method> =
  Operation<P, M> extends { responses: infer Responses }
    ? Responses extends { 200: infer Ok }
      ? JsonOf<Ok>
      : Responses extends { 201: infer Created }
        ? JsonOf<Created>
        : unknown
    : unknown;

/** Query parameters of a call (`never` when it takes none). */
export type QueryOf<P extends ApiPath, M extends Method> =
  Operation<P, M> extends { parameters: { query?: infer Query } } ? Query : never;

/** JSON request body of a call. */
export type BodyOf<P extends ApiPath, M extends Method> =
  Operation<P, M> extends { requestBody?: { content: { 'application/json': infer Body } } } ? Body : never;

/** Named schemas of the server: `Schema<'EmailCheck'>`. */
export type Schema<Name extends keyof import('./schema').components['schemas']> =
  import('./schema').components['schemas'][Name];

type TypedOptions<P extends ApiPath, M extends Method> = Omit<ApiRequest, 'method' | 'query' | 'body'> & {
  query?: QueryOf<P, M>;
  body?: BodyOf<P, M>;
};

/** A GET whose path, query and answer are checked against the schema. */
export function typedGet<P extends PathsWith<'get'>>(
  path: P,
  options: TypedOptions<P, 'get'> = {},
  client: ApiClient = apiClient,
): Promise<ResponseOf<P, 'get'>> {
  const { query, ...rest } = options;
  return client.request<ResponseOf<P, 'get'>>(path, {
    ...rest,
    method: 'GET',
    query: query as ApiRequest['query'],
  });
}
