package tiers

func Hot() {} // want "hot finding"

func Cold() {}

func Inherent() {}
