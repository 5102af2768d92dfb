module grainlab

go 1.26
