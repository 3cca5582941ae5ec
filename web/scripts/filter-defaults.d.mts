export declare const webDir: string;
export declare const catalogueFile: string;
export declare const localFiltersPath: string;
export declare function renderLocalFilters(): string;
