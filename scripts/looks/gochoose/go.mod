module gochoose

go 1.19
