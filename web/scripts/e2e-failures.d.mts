export declare function failuresOf(report: unknown): string[];
