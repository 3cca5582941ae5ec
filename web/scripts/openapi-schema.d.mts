export declare const webDir: string;
export declare const schemaPath: string;
export declare const openapiPath: string;
export declare const rulesPath: string;
export declare function readOpenApiDocument(): string;
export declare function readWebRules(): string;
export declare function renderSchema(documentText: string): Promise<string>;
