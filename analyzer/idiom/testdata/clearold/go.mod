module clearold

go 1.20
