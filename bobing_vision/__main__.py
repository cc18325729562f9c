from bobing_vision.cli.main import main

raise SystemExit(main())
