"""Ad, misblock and bug reports: the filter catalogues they name, the report itself, links to its images."""
