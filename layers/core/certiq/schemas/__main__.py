from certiq.schemas import export

for path in export():
    print(path)
